/**
 * Demo leads (issue 16): about 360 leads from every demo lead source, in every board column, over
 * the last four months — prospects and existing customers, unassigned (the call centre's), the
 * call centre's own and the consultants' (only where the source's visibleRoles let that role see
 * it), with call attempts, close reasons, some linked to the demo appointments they were booked
 * with ('appointment set'), and two people closed as 'blacklist' on the blacklist. Positions are
 * fractional indexes, newest on top of each column.
 */
import dayjs from 'dayjs';
import { generateNKeysBetween } from 'fractional-indexing';
import type { Insertable } from 'kysely';
import type { LeadCallOutcome, LeadCloseStatus, LeadStatus } from '../../src/schema/leads.ts';
import type { LeadsTable } from '../../src/types/database.ts';
import type { DB } from '../db/index.ts';
import {
  ascii,
  COMPANIES,
  FIRST,
  LAST,
  MAIL_DOMAINS,
  PLACES,
  type Region,
  STREETS,
  storedPhone,
} from './customers.ts';
import { random } from './random.ts';

/** Leads per demo lead source. */
const PER_SOURCE = 45;

type LeadValues = Insertable<LeadsTable>;

const CLOSE_REASONS: LeadCloseStatus[] = [
  'resolved',
  'never_reached',
  'not_interested',
  'invalid',
  'not_interested',
  'never_reached',
];

const NOTES = {
  de: [
    'Möchte Offerte für Krankenkasse 2027',
    'Interesse an 3. Säule',
    'Autoversicherung läuft Ende Jahr aus',
    'Bitte abends anrufen',
    'Hat über Website angefragt: Hausrat',
  ],
  fr: [
    'Souhaite une offre pour la caisse maladie 2027',
    'Intéressée par le 3e pilier',
    'Assurance auto échoit en fin d’année',
    'Appeler plutôt le soir',
  ],
  it: ['Desidera un’offerta cassa malati 2027', 'Interesse per il 3° pilastro'],
};

export async function seedDemoLeads(db: DB, now: number = Date.now()): Promise<void> {
  const rnd = random(20261128);
  const users = await db.selectFrom('users').select(['id', 'email', 'role']).execute();
  const idOf = (email: string) => users.find((user) => user.email === email)?.id;
  const consultants = ['consultant@demo.gscrm.ch', 'consultant2@demo.gscrm.ch']
    .map(idOf)
    .filter((id): id is number => id !== undefined);
  const callCentre = idOf('callcenter@demo.gscrm.ch');
  const admin = idOf('admin@demo.gscrm.ch');
  const sources = await db
    .selectFrom('lead_sources')
    .select(['id', 'visible_roles'])
    .orderBy('id')
    .execute();
  const customers = await db
    .selectFrom('customers')
    .select([
      'id',
      'first_name',
      'last_name',
      'organization',
      'is_company',
      'email',
      'phone_number',
    ])
    .orderBy('id')
    .execute();
  // Demo appointments not linked to a lead yet, with their customer: 'appointment set' leads.
  const appointments = await db
    .selectFrom('appointments')
    .select(['id', 'client_id', 'consultant_id', 'created_at'])
    .where('lead_id', 'is', null)
    .orderBy('id')
    .execute();
  let nextAppointment = 0;

  const today = dayjs(now);
  const leads: Array<{ values: LeadValues; appointmentId?: number }> = [];
  for (const source of sources) {
    const roles = (source.visible_roles ?? []) as string[];
    const sees = (role: string) => roles.includes(role);
    for (let index = 0; index < PER_SOURCE; index++) {
      const region: Region = rnd.pick(['de', 'de', 'de', 'fr', 'fr', 'it'] as const);
      const ageDays = rnd.int(0, 120);
      const created = today.subtract(ageDays, 'day').subtract(rnd.int(0, 600), 'minute');
      const roll = rnd.int(0, 99);
      let status: LeadStatus =
        roll < 28 ? 'new' : roll < 46 ? 'not reached' : roll < 66 ? 'to do' : 'closed';
      // Old leads are rarely still new.
      if (status === 'new' && ageDays > 45) status = 'to do';
      let assigned: number | null = null;
      if (status !== 'new' || rnd.chance(0.2)) {
        const choice = rnd.int(0, 2);
        if (choice === 0 && callCentre && sees('BACKOFFICE-CALLCENTER')) assigned = callCentre;
        else if (choice > 0 && consultants.length > 0 && sees('CONSULTANT'))
          assigned = rnd.pick(consultants);
        else if (callCentre && sees('BACKOFFICE-CALLCENTER')) assigned = callCentre;
      }
      let closeStatus: LeadCloseStatus | null = null;
      let appointmentId: number | undefined;
      let customerId: number | null = null;
      if (status === 'closed') {
        const appointment = appointments[nextAppointment];
        if (rnd.chance(0.35) && appointment) {
          nextAppointment++;
          closeStatus = 'appointment_set';
          appointmentId = Number(appointment.id);
          customerId = Number(appointment.client_id);
          assigned =
            appointment.consultant_id === null ? assigned : Number(appointment.consultant_id);
          if (assigned !== null && !sees('CONSULTANT') && consultants.includes(assigned))
            assigned = null;
        } else {
          closeStatus = rnd.pick(CLOSE_REASONS);
        }
      } else if (rnd.chance(0.12) && customers.length > 0) {
        customerId = Number(rnd.pick(customers).id);
      }
      const customer = customers.find((candidate) => Number(candidate.id) === customerId);
      const company = !customer && rnd.chance(0.1) ? rnd.pick(COMPANIES) : undefined;
      const place = rnd.pick(PLACES[company?.region ?? region]);
      const female = rnd.chance(0.5);
      const firstName = customer
        ? customer.first_name
        : company
          ? null
          : rnd.pick(FIRST[region][female ? 'female' : 'male']);
      const lastName = customer ? customer.last_name : company ? null : rnd.pick(LAST[region]);
      const local = `${place.phone.slice(1)} ${rnd.int(200, 999)} ${rnd.int(10, 99)} ${rnd.int(10, 99)}`;
      const mobile = `07${rnd.pick([6, 7, 8, 9])} ${rnd.int(200, 999)} ${rnd.int(10, 99)} ${rnd.int(10, 99)}`;
      const email = customer
        ? customer.email
        : company
          ? `info@${company.domain}`
          : `${ascii(firstName ?? '')}.${ascii(lastName ?? '')}${rnd.int(1, 99)}@${rnd.pick(MAIL_DOMAINS)}`;
      // Call attempts: a lead not reached has one to three failed ones; later columns a reach.
      const attempts: Array<{ at: string; outcome: LeadCallOutcome; user_id?: number }> = [];
      const caller = assigned ?? callCentre ?? admin;
      const failed =
        status === 'new' ? 0 : status === 'not reached' ? rnd.int(1, 3) : rnd.int(0, 2);
      let at = created.add(rnd.int(2, 30), 'hour');
      for (let attempt = 0; attempt < failed; attempt++) {
        attempts.push({
          at: at.toISOString(),
          outcome: rnd.pick(['not_reached', 'voicemail', 'busy'] as const),
          ...(caller ? { user_id: caller } : {}),
        });
        at = at.add(rnd.int(20, 60), 'hour');
      }
      if (status === 'to do' || (status === 'closed' && closeStatus !== 'never_reached')) {
        attempts.push({
          at: at.toISOString(),
          outcome: rnd.pick(['reached', 'reached', 'call_back'] as const),
          ...(caller ? { user_id: caller } : {}),
        });
      }
      const last = attempts.at(-1);
      const when = (instant: dayjs.Dayjs) =>
        instant.isAfter(today) ? today.toISOString() : instant.toISOString();
      leads.push({
        appointmentId,
        values: {
          created_at: created.toISOString(),
          updated_at: when(last ? dayjs(last.at) : created),
          customer_id: customerId,
          is_company: customer ? customer.is_company === true : Boolean(company),
          organization: customer ? customer.organization : (company?.name ?? null),
          first_name: firstName,
          last_name: lastName,
          email,
          phone_number: customer
            ? customer.phone_number
            : storedPhone(company || rnd.chance(0.3) ? `0${local}` : mobile),
          street: customer ? null : `${rnd.pick(STREETS[region])} ${rnd.int(1, 80)}`,
          zip: customer ? null : place.zip,
          city: customer ? null : place.city,
          language: region,
          lead_source: Number(source.id),
          recommended_by:
            rnd.chance(0.15) && customers.length > 0
              ? [rnd.pick(customers)].map(
                  (c) => c.organization ?? `${c.first_name} ${c.last_name}`,
                )[0]
              : null,
          assigned_to: assigned,
          status,
          close_status: closeStatus,
          attempt_count: attempts.length,
          last_attempt_at: last ? when(dayjs(last.at)) : null,
          call_attempts: JSON.stringify(
            attempts.map((attempt) => ({ ...attempt, at: when(dayjs(attempt.at)) })),
          ),
          notes: rnd.chance(0.4) ? rnd.pick(NOTES[region]) : null,
          appointment_id: appointmentId ?? null,
          closed_at: status === 'closed' ? when(at.add(rnd.int(1, 48), 'hour')) : null,
        },
      });
    }
  }
  // Two people who asked never to be called again.
  const closedOthers = leads.filter(
    (lead) => lead.values.status === 'closed' && lead.values.close_status !== 'appointment_set',
  );
  for (const lead of closedOthers.slice(0, 2)) lead.values.close_status = 'blacklist';

  // Each column newest first.
  for (const status of ['new', 'not reached', 'to do', 'closed'] as const) {
    const column = leads
      .filter((lead) => lead.values.status === status)
      .sort((a, b) => String(b.values.created_at).localeCompare(String(a.values.created_at)));
    const keys = generateNKeysBetween(null, null, column.length);
    column.forEach((lead, index) => {
      lead.values.position = keys[index];
    });
  }
  const inserted = await db
    .insertInto('leads')
    .values(leads.map((lead) => lead.values))
    .returning(['id', 'appointment_id', 'close_status', 'customer_id', 'email', 'phone_number'])
    .execute();
  for (const row of inserted) {
    if (row.appointment_id !== null)
      await db
        .updateTable('appointments')
        .set({ lead_id: row.id })
        .where('id', '=', row.appointment_id)
        .execute();
    if (row.close_status === 'blacklist') {
      const lead = leads.find((candidate) => candidate.values.email === row.email)?.values;
      await db
        .insertInto('blacklist_entries')
        .values({
          customer_id: row.customer_id,
          email: row.email,
          phone_number: row.phone_number,
          first_name: lead?.first_name ?? null,
          last_name: lead?.last_name ?? null,
          organization: lead?.organization ?? null,
          reason: 'Wünscht keine Kontaktaufnahme mehr',
          lead_id: row.id,
          created_by: admin ?? null,
        })
        .execute();
    }
  }
}
