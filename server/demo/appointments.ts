/**
 * Demo appointments, feedback and reminders (issue 15): a month around today (two weeks back, two
 * weeks ahead, weekdays) for both demo consultants — each on four weekdays a week (Daniel Müller
 * not on Wednesdays, Élodie Favre not on Fridays), one to three appointments a day between 08:00
 * and 18:00 Swiss time at their own customers' addresses. Past appointments mostly have feedback
 * (took place 2, first took place 10, did not take place 7), some are still missing it, some were
 * cancelled (5, 6; to rebook, rebooked, closed); future ones are planned (1, 3), a few cancelled
 * to rebook, and some have no consultant yet (the call centre's work; one 'was not assigned', 15).
 * Follow-ups hang off feedback (`previous_appointment_id`, the feedback's
 * `follow_up_appointment_id`), one chain three long. Reminders come from feedback and stand alone
 * in every status — open overdue, open due today, open later, resolved, cancelled — for both
 * consultants and the call centre.
 *
 * Relative to today (so the calendar always shows a current month) and otherwise deterministic (a
 * seeded generator): the same rows on every first start of a given day. Written in a handful of
 * batched statements (PGlite pays per statement, not per row).
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import type { Insertable } from 'kysely';
import { SWISS_TIME_ZONE } from '../../src/schema/appointments.ts';
import type { AppointmentsTable, RemindersTable } from '../../src/types/database.ts';
import { placeOf } from '../appointments/hooks.ts';
import { swissInstant, swissToday, timesOf } from '../appointments/times.ts';
import type { DB } from '../db/index.ts';
import { random } from './random.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/** A copy of `items` in a random order (Fisher–Yates with the seeded generator). */
function shuffled<T>(items: readonly T[], int: (min: number, max: number) => number): T[] {
  const out = [...items];
  for (let index = out.length - 1; index > 0; index--) {
    const other = int(0, index);
    [out[index], out[other]] = [out[other], out[index]];
  }
  return out;
}

type Language = 'de' | 'fr';

const TEXTS = {
  de: {
    comments: [
      'Beratung Krankenkasse (Grund- und Zusatzversicherung)',
      'Vorsorge 3a besprechen',
      'Hausrat und Privathaftpflicht prüfen',
      'Offerte Autoversicherung',
      'Jahresgespräch',
      'Familie mit zwei Kindern, Prämien zu hoch',
    ],
    tookPlace: [
      'Offerte erstellt, Kunde entscheidet bis Ende Monat.',
      'Antrag unterschrieben, Unterlagen vollständig.',
      'Gutes Gespräch, Partnerin beim nächsten Termin dabei.',
      'Bestehende Policen aufgenommen, Vergleich folgt.',
    ],
    notTaken: ['Kunde nicht zu Hause, telefonisch nicht erreicht.', 'Kurzfristig verschoben.'],
    cancel: ['Kunde krank', 'Terminkollision beim Kunden', 'Kein Interesse mehr'],
    reminders: [
      'Offerte nachfassen',
      'Unterlagen einfordern',
      'Police prüfen',
      'Rückruf vereinbaren',
      'Kündigung vorbereiten',
    ],
  },
  fr: {
    comments: [
      'Conseil assurance maladie (de base et complémentaire)',
      'Prévoyance 3a',
      'Ménage et RC privée à vérifier',
      'Offre assurance auto',
      'Entretien annuel',
      'Famille avec deux enfants, primes trop élevées',
    ],
    tookPlace: [
      'Offre établie, le client décide d’ici la fin du mois.',
      'Proposition signée, documents complets.',
      'Bon entretien, la conjointe sera là la prochaine fois.',
      'Polices existantes relevées, comparaison à suivre.',
    ],
    notTaken: ['Client absent, injoignable par téléphone.', 'Reporté au dernier moment.'],
    cancel: ['Client malade', 'Empêchement du client', 'Plus d’intérêt'],
    reminders: [
      'Relancer l’offre',
      'Demander les documents',
      'Vérifier la police',
      'Convenir d’un rappel',
      'Préparer la résiliation',
    ],
  },
} as const;

/** Start times of the day's slots (Swiss time) and their lengths in minutes. */
const SLOTS: Array<[string, number]> = [
  ['08:00:00', 60],
  ['09:30:00', 90],
  ['11:00:00', 60],
  ['13:30:00', 90],
  ['15:00:00', 60],
  ['16:30:00', 90],
];

interface Customer {
  id: number;
  street: string | null;
  address_number: string | null;
  zip: string | null;
  city: string | null;
}

interface Plan {
  values: Insertable<AppointmentsTable>;
  language: Language;
  /** Feedback to give: its status (2, 10, 7), and what follows it. */
  feedback?: {
    status: 2 | 7 | 10;
    note: string;
    reminder?: Omit<Insertable<RemindersTable>, 'appointment_id'>;
    followUp?: Plan;
  };
}

const addDays = (date: string, days: number) =>
  dayjs.tz(`${date}T12:00:00`, SWISS_TIME_ZONE).add(days, 'day').format('YYYY-MM-DD');
const weekday = (date: string) => dayjs.tz(`${date}T12:00:00`, SWISS_TIME_ZONE).day();

export async function seedDemoAppointments(db: DB, now: number = Date.now()): Promise<void> {
  const users = await db.selectFrom('users').select(['id', 'email']).execute();
  const idOf = (email: string) => {
    const user = users.find((candidate) => candidate.email === email);
    return user ? Number(user.id) : undefined;
  };
  const consultants = [
    { id: idOf('consultant@demo.gscrm.ch'), language: 'de' as const, dayOff: 3 },
    { id: idOf('consultant2@demo.gscrm.ch'), language: 'fr' as const, dayOff: 5 },
  ].filter((consultant): consultant is typeof consultant & { id: number } => !!consultant.id);
  const callCentre = idOf('callcenter@demo.gscrm.ch');
  if (consultants.length === 0) return;

  const customers = await db
    .selectFrom('customers')
    .select(['id', 'assigned_to', 'street', 'address_number', 'zip', 'city'])
    .orderBy('id')
    .execute();
  const ofConsultant = (id: number | null): Customer[] =>
    customers
      .filter(
        (customer) => (customer.assigned_to === null ? null : Number(customer.assigned_to)) === id,
      )
      .map((customer) => ({ ...customer, id: Number(customer.id) }));

  const rnd = random(20261123);
  const today = swissToday(now);
  const address = (customer: Customer) => {
    const place = placeOf(customer.zip);
    return {
      street: customer.street,
      number: customer.address_number,
      zip: customer.zip,
      city: customer.city,
      canton: place.canton,
      latitude: place.latitude,
      longitude: place.longitude,
    };
  };
  const at = (date: string, slot: [string, number]) => {
    const start = swissInstant(date, slot[0]);
    return timesOf(start, start + slot[1] * 60_000);
  };
  const reminder = (
    language: Language,
    userId: number,
    clientId: number,
    due: string,
    status: 'open' | 'resolved' | 'cancelled' = 'open',
  ): Omit<Insertable<RemindersTable>, 'appointment_id'> => ({
    subject: rnd.pick(TEXTS[language].reminders),
    status,
    due_date: due,
    date: due < today ? addDays(due, -7) : today,
    time: rnd.chance(0.5) ? rnd.pick(['09:00:00', '10:30:00', '14:00:00']) : null,
    category: rnd.pick(['call', 'offer', 'documents', 'follow_up'] as const),
    user_id: userId,
    assigner_id: userId,
    client_id: clientId,
    resolved_at: status === 'open' ? null : new Date(now - rnd.int(1, 5) * 86_400_000),
  });

  const plans: Plan[] = [];
  for (const consultant of consultants) {
    const book = ofConsultant(consultant.id);
    if (book.length === 0) continue;
    const texts = TEXTS[consultant.language];
    for (let offset = -14; offset <= 14; offset++) {
      const date = addDays(today, offset);
      const day = weekday(date);
      if (day === 0 || day === 6 || day === consultant.dayOff) continue;
      const count = rnd.int(1, 3);
      const slots = shuffled(SLOTS, rnd.int).slice(0, count);
      for (const slot of slots) {
        const customer = rnd.pick(book);
        const times = at(date, slot);
        const past = Date.parse(times.date_end) < now;
        const values: Insertable<AppointmentsTable> = {
          ...times,
          ...address(customer),
          client_id: customer.id,
          consultant_id: consultant.id,
          appointment_type: rnd.pick([
            'first',
            'first',
            'follow_up',
            'signing',
            'service',
          ] as const),
          who_requested: rnd.pick([
            'client',
            'consultant',
            'call_centre',
            'recommendation',
          ] as const),
          comment: rnd.pick(texts.comments),
          status: rnd.chance(0.7) ? 1 : 3,
        };
        const plan: Plan = { values, language: consultant.language };
        const roll = rnd.int(1, 100);
        if (past && roll <= 12) {
          // Cancelled, by us or by the customer.
          values.status = rnd.chance(0.5) ? 5 : 6;
          values.cancel_reason = rnd.pick(texts.cancel);
          values.cancel_status = rnd.pick(['to_rebook', 'rebooked', 'closed'] as const);
        } else if (past && roll <= 27) {
          // Feedback still missing (status stays planned).
        } else if (past) {
          const status = roll <= 55 ? 2 : roll <= 78 ? 10 : 7;
          plan.feedback = {
            status,
            note: rnd.pick(status === 7 ? texts.notTaken : texts.tookPlace),
          };
          if (rnd.chance(0.35)) {
            const due = addDays(date, rnd.int(3, 12));
            plan.feedback.reminder = reminder(
              consultant.language,
              consultant.id,
              customer.id,
              due,
              due < today && rnd.chance(0.5) ? 'resolved' : 'open',
            );
          }
        } else if (roll <= 6) {
          values.status = 6;
          values.cancel_reason = rnd.pick(texts.cancel);
          values.cancel_status = 'to_rebook';
        }
        plans.push(plan);
      }
    }
  }

  // Follow-ups: some feedback that took place books the next appointment (at least two days on,
  // a weekday, its consultant's first free slot is not checked: 17:00, after the day's slots).
  const followUpOf = (plan: Plan, date: string): Plan => ({
    language: plan.language,
    values: {
      ...at(date, ['17:00:00', 60]),
      street: plan.values.street,
      number: plan.values.number,
      zip: plan.values.zip,
      city: plan.values.city,
      canton: plan.values.canton,
      latitude: plan.values.latitude,
      longitude: plan.values.longitude,
      client_id: plan.values.client_id,
      consultant_id: plan.values.consultant_id,
      appointment_type: 'follow_up',
      who_requested: 'consultant',
      comment: plan.values.comment,
      status: 1,
    },
  });
  const nextWeekday = (date: string) => {
    let day = date;
    while ([0, 6].includes(weekday(day))) day = addDays(day, 1);
    return day;
  };
  const tookPlace = plans.filter((plan) => plan.feedback && plan.feedback.status !== 7);
  tookPlace.forEach((plan, index) => {
    if (index % 3 !== 0 || !plan.feedback) return;
    const date = nextWeekday(addDays(String(plan.values.date), rnd.int(5, 12)));
    plan.feedback.followUp = followUpOf(plan, date);
  });
  // One chain of three: the earliest first appointment → a follow-up that took place → another.
  const first = tookPlace.find((plan) => plan.feedback?.followUp);
  const second = first?.feedback?.followUp;
  if (first?.feedback && second && Date.parse(String(second.values.date_end)) < now) {
    second.values.status = 1;
    second.feedback = {
      status: 2,
      note: TEXTS[second.language].tookPlace[1],
      followUp: followUpOf(second, nextWeekday(addDays(today, 4))),
    };
  }

  // Not yet assigned (future): the call centre's to do.
  const leads = ofConsultant(null);
  const pool = leads.length > 0 ? leads : ofConsultant(consultants[0].id);
  for (let index = 0; index < 6 && pool.length > 0; index++) {
    const customer = pool[index % pool.length];
    const date = nextWeekday(addDays(today, 1 + index * 2));
    plans.push({
      language: 'de',
      values: {
        ...at(date, SLOTS[index % SLOTS.length]),
        ...address(customer),
        client_id: customer.id,
        consultant_id: null,
        appointment_type: 'first',
        who_requested: 'call_centre',
        comment: 'Website-Anfrage: Rückruf erwünscht, Termin vor Ort',
        status: index === 5 ? 15 : 1,
      },
    });
  }

  // Insert level by level (a follow-up needs its previous appointment's id).
  let level = plans;
  const all: Array<{ plan: Plan; id: number }> = [];
  while (level.length > 0) {
    const rows = await db
      .insertInto('appointments')
      .values(level.map((plan) => plan.values))
      .returning('id')
      .execute();
    const inserted = level.map((plan, index) => ({ plan, id: Number(rows[index].id) }));
    all.push(...inserted);
    const next: Plan[] = [];
    for (const { plan, id } of inserted) {
      const followUp = plan.feedback?.followUp;
      if (followUp) {
        followUp.values.previous_appointment_id = id;
        next.push(followUp);
      }
    }
    level = next;
  }
  const idOfPlan = new Map(all.map(({ plan, id }) => [plan, id]));

  // Reminders: from feedback (with their appointment), and on their own in every status.
  const reminders: Array<Insertable<RemindersTable>> = [];
  const reminderOf = new Map<Plan, number>();
  for (const { plan, id } of all) {
    if (!plan.feedback?.reminder) continue;
    reminderOf.set(plan, reminders.length);
    reminders.push({ ...plan.feedback.reminder, appointment_id: id });
  }
  const owners = [
    ...consultants.map((consultant) => ({
      id: consultant.id,
      language: consultant.language as Language,
      book: ofConsultant(consultant.id),
    })),
    ...(callCentre
      ? [
          {
            id: callCentre,
            language: 'de' as Language,
            book: leads.length > 0 ? leads : customers.map((c) => ({ ...c, id: Number(c.id) })),
          },
        ]
      : []),
  ];
  for (const owner of owners) {
    if (owner.book.length === 0) continue;
    const client = (index: number) => owner.book[index % owner.book.length].id;
    const due: Array<[string, 'open' | 'resolved' | 'cancelled']> = [
      [addDays(today, -6), 'open'],
      [addDays(today, -2), 'open'],
      [today, 'open'],
      [today, 'open'],
      [addDays(today, 3), 'open'],
      [addDays(today, 10), 'open'],
      [addDays(today, -9), 'resolved'],
      [addDays(today, -3), 'resolved'],
      [addDays(today, -5), 'cancelled'],
    ];
    due.forEach(([date, status], index) =>
      reminders.push({ ...reminder(owner.language, owner.id, client(index), date, status) }),
    );
  }
  const reminderIds =
    reminders.length === 0
      ? []
      : (await db.insertInto('reminders').values(reminders).returning('id').execute()).map((row) =>
          Number(row.id),
        );

  // Feedback, then each appointment's status and feedback id in one statement.
  const feedbacks = all
    .filter(({ plan }) => plan.feedback)
    .map(({ plan, id }) => {
      const given = plan.feedback!;
      const index = reminderOf.get(plan);
      return {
        appointment_id: id,
        has_taken_place: given.status !== 7,
        is_reached_by_phone: given.status === 7 ? rnd.chance(0.5) : null,
        status: given.status,
        note: given.note,
        user_id: Number(plan.values.consultant_id),
        reminder_id: index === undefined ? null : reminderIds[index],
        follow_up_appointment_id: given.followUp ? (idOfPlan.get(given.followUp) ?? null) : null,
      };
    });
  if (feedbacks.length === 0) return;
  await db.insertInto('feedbacks').values(feedbacks).execute();
  await db
    .updateTable('appointments')
    .from('feedbacks')
    .set((eb) => ({ feedback_id: eb.ref('feedbacks.id'), status: eb.ref('feedbacks.status') }))
    .whereRef('feedbacks.appointment_id', '=', 'appointments.id')
    .where('appointments.feedback_id', 'is', null)
    .execute();
}
