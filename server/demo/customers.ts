/**
 * Demo book of customers (issue 6): people and companies across the two demo consultants — Daniel
 * Müller (consultant@) in German-speaking Switzerland, Élodie Favre (consultant2@) in Romandie and
 * Ticino — plus a few unassigned website leads. Swiss names, real zip/city pairs, households with
 * spouses and children, referrals between customers. Deterministic (same data on every start).
 *
 * The first customer belongs to consultant@, so "the customer with the lowest id" (used by generic
 * tests as a reference) is visible to that consultant. Kept well under 500 rows so whole-table
 * list checks stay within one page.
 */
import type { Insertable } from 'kysely';
import type { CustomersTable, HouseholdMembersTable } from '../../src/types/database.ts';
import type { DB } from '../db/index.ts';
import { toE164 } from '../../src/schema/phone.ts';
import { random } from './random.ts';

export interface Place {
  zip: string;
  city: string;
  phone: string;
}
export type Region = 'de' | 'fr' | 'it';

export const PLACES: Record<Region, Place[]> = {
  de: [
    { zip: '8001', city: 'Zürich', phone: '044' },
    { zip: '8004', city: 'Zürich', phone: '044' },
    { zip: '8032', city: 'Zürich', phone: '044' },
    { zip: '8050', city: 'Zürich', phone: '044' },
    { zip: '8400', city: 'Winterthur', phone: '052' },
    { zip: '8600', city: 'Dübendorf', phone: '044' },
    { zip: '8304', city: 'Wallisellen', phone: '044' },
    { zip: '8820', city: 'Wädenswil', phone: '044' },
    { zip: '3011', city: 'Bern', phone: '031' },
    { zip: '3007', city: 'Bern', phone: '031' },
    { zip: '3600', city: 'Thun', phone: '033' },
    { zip: '3400', city: 'Burgdorf', phone: '034' },
    { zip: '4051', city: 'Basel', phone: '061' },
    { zip: '4056', city: 'Basel', phone: '061' },
    { zip: '6003', city: 'Luzern', phone: '041' },
    { zip: '6300', city: 'Zug', phone: '041' },
    { zip: '6340', city: 'Baar', phone: '041' },
    { zip: '9000', city: 'St. Gallen', phone: '071' },
    { zip: '5000', city: 'Aarau', phone: '062' },
    { zip: '5400', city: 'Baden', phone: '056' },
    { zip: '4500', city: 'Solothurn', phone: '032' },
    { zip: '8200', city: 'Schaffhausen', phone: '052' },
    { zip: '7000', city: 'Chur', phone: '081' },
  ],
  fr: [
    { zip: '1003', city: 'Lausanne', phone: '021' },
    { zip: '1004', city: 'Lausanne', phone: '021' },
    { zip: '1020', city: 'Renens VD', phone: '021' },
    { zip: '1110', city: 'Morges', phone: '021' },
    { zip: '1201', city: 'Genève', phone: '022' },
    { zip: '1205', city: 'Genève', phone: '022' },
    { zip: '1227', city: 'Carouge GE', phone: '022' },
    { zip: '1260', city: 'Nyon', phone: '022' },
    { zip: '1700', city: 'Fribourg', phone: '026' },
    { zip: '2000', city: 'Neuchâtel', phone: '032' },
    { zip: '2300', city: 'La Chaux-de-Fonds', phone: '032' },
    { zip: '1950', city: 'Sion', phone: '027' },
    { zip: '1820', city: 'Montreux', phone: '021' },
    { zip: '1800', city: 'Vevey', phone: '021' },
    { zip: '1400', city: 'Yverdon-les-Bains', phone: '024' },
  ],
  it: [
    { zip: '6900', city: 'Lugano', phone: '091' },
    { zip: '6500', city: 'Bellinzona', phone: '091' },
    { zip: '6600', city: 'Locarno', phone: '091' },
    { zip: '6850', city: 'Mendrisio', phone: '091' },
  ],
};

export const STREETS: Record<Region, string[]> = {
  de: [
    'Bahnhofstrasse',
    'Hauptstrasse',
    'Dorfstrasse',
    'Seestrasse',
    'Kirchweg',
    'Schulstrasse',
    'Gartenstrasse',
    'Rosenweg',
    'Birkenweg',
    'Feldstrasse',
    'Lindenstrasse',
    'Bergstrasse',
  ],
  fr: [
    'Rue de la Gare',
    'Avenue de la Gare',
    'Chemin des Vignes',
    'Rue du Lac',
    'Route de Berne',
    'Rue du Marché',
    'Avenue des Alpes',
    'Chemin du Bois',
    'Rue de Lausanne',
  ],
  it: ['Via Nassa', 'Via Cantonale', 'Via San Gottardo', 'Via della Posta', 'Via Lugano'],
};

export const FIRST: Record<Region, { male: string[]; female: string[] }> = {
  de: {
    male: ['Hans', 'Peter', 'Thomas', 'Markus', 'Martin', 'Andreas', 'Stefan', 'Reto', 'Urs'],
    female: ['Anna', 'Sandra', 'Nicole', 'Claudia', 'Barbara', 'Monika', 'Sarah', 'Ursula'],
  },
  fr: {
    male: ['Jean', 'Pierre', 'Nicolas', 'Olivier', 'Julien', 'Laurent', 'Philippe', 'Alain'],
    female: ['Marie', 'Sophie', 'Isabelle', 'Nathalie', 'Camille', 'Céline', 'Valérie'],
  },
  it: {
    male: ['Marco', 'Luca', 'Giovanni', 'Paolo', 'Matteo'],
    female: ['Giulia', 'Francesca', 'Chiara', 'Elena', 'Sara'],
  },
};
const CHILDREN: Record<Region, { male: string[]; female: string[] }> = {
  de: { male: ['Noah', 'Leon', 'Luca', 'Elias', 'Finn'], female: ['Mia', 'Lea', 'Emma', 'Lina'] },
  fr: { male: ['Gabriel', 'Louis', 'Arthur', 'Nathan'], female: ['Chloé', 'Léa', 'Alice', 'Zoé'] },
  it: { male: ['Leonardo', 'Alessandro', 'Tommaso'], female: ['Sofia', 'Aurora', 'Giorgia'] },
};
export const LAST: Record<Region, string[]> = {
  de: [
    'Müller',
    'Meier',
    'Schmid',
    'Keller',
    'Weber',
    'Huber',
    'Schneider',
    'Steiner',
    'Fischer',
    'Gerber',
    'Brunner',
    'Baumann',
    'Frei',
    'Zimmermann',
    'Moser',
    'Widmer',
    'Wyss',
    'Graf',
    'Baumgartner',
    'Suter',
    'Bachmann',
    'Bühler',
  ],
  fr: [
    'Favre',
    'Rochat',
    'Bonvin',
    'Perrin',
    'Dubois',
    'Morel',
    'Girard',
    'Blanc',
    'Chevalley',
    'Pittet',
    'Cuénod',
    'Jaquet',
    'Mottier',
    'Vuilleumier',
    'Monnier',
  ],
  it: ['Rossi', 'Bernasconi', 'Bianchi', 'Ferrari', 'Colombo', 'Galli', 'Pedrazzini'],
};

/** Foreign nationals living in Switzerland, with their usual permit and language. */
const FOREIGN = [
  { nationality: 'PT', permit: 'C', language: 'pt', last: ['Silva', 'Santos', 'Ferreira'] },
  { nationality: 'IT', permit: 'C', language: 'it', last: ['Esposito', 'Romano'] },
  { nationality: 'DE', permit: 'B', language: 'de', last: ['Schulz', 'Hoffmann', 'Wagner'] },
  { nationality: 'XK', permit: 'B', language: 'sq', last: ['Berisha', 'Krasniqi', 'Gashi'] },
  { nationality: 'ES', permit: 'C', language: 'es', last: ['García', 'Fernández'] },
  { nationality: 'FR', permit: 'G', language: 'fr', last: ['Lefèvre', 'Martin'] },
  { nationality: 'RS', permit: 'C', language: 'sr', last: ['Jovanović', 'Petrović'] },
];

export const COMPANIES: Array<{ name: string; region: Region; domain: string }> = [
  { name: 'Bäckerei Steiner AG', region: 'de', domain: 'baeckerei-steiner.ch' },
  { name: 'Schreinerei Gerber GmbH', region: 'de', domain: 'schreinerei-gerber.ch' },
  { name: 'Garage Meier AG', region: 'de', domain: 'garage-meier.ch' },
  { name: 'Elektro Huber AG', region: 'de', domain: 'elektro-huber.ch' },
  { name: 'Architekturbüro Widmer & Partner AG', region: 'de', domain: 'widmer-partner.ch' },
  { name: 'Physiotherapie Bachmann GmbH', region: 'de', domain: 'physio-bachmann.ch' },
  { name: 'Café du Marché Sàrl', region: 'fr', domain: 'cafedumarche.ch' },
  { name: 'Fiduciaire Rochat SA', region: 'fr', domain: 'fiduciaire-rochat.ch' },
  { name: 'Boulangerie Perrin Sàrl', region: 'fr', domain: 'boulangerie-perrin.ch' },
  { name: 'Transports Monnier SA', region: 'fr', domain: 'transports-monnier.ch' },
  { name: 'Ristorante Bellavista SA', region: 'it', domain: 'bellavista-lugano.ch' },
  { name: 'Informatica Galli Sagl', region: 'it', domain: 'informatica-galli.ch' },
];

const NOTES: Record<Region, string[]> = {
  de: [
    'Wünscht eine Beratung zur 3. Säule.',
    'Hypothek läuft 2027 aus, Offerte für Verlängerung vorbereiten.',
    'Interessiert an Spitalzusatzversicherung (halbprivat).',
    'Autoversicherung bei Wechsel des Fahrzeugs prüfen.',
    'Bevorzugt Termine am Abend.',
  ],
  fr: [
    'Souhaite comparer sa LAMal avant fin novembre.',
    'Intéressée par un 3e pilier lié.',
    'Préfère être contactée par e-mail.',
    'Déménagement prévu au printemps, adapter l’assurance ménage.',
  ],
  it: ['Desidera una consulenza sulla previdenza.', 'Preferisce appuntamenti il sabato mattina.'],
};

export const MAIL_DOMAINS = ['bluewin.ch', 'gmx.ch', 'sunrise.ch', 'hispeed.ch', 'outlook.com'];

/** Small deterministic generator (mulberry32), so the demo is the same on every start. */

export const ascii = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[^a-zA-Z0-9]+/g, '')
    .toLowerCase();

const pad = (n: number) => String(n).padStart(2, '0');

/** A demo number as the API stores every phone number: E.164 (src/schema/phone.ts). */
export function storedPhone(text: string): string {
  const e164 = toE164(text);
  if (e164 === null) throw new Error(`The demo phone number ${text} is not valid.`);
  return e164;
}
const date = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;

/** A customer to insert; its household members get their customer's id once it is written. */
type CustomerValues = Insertable<CustomersTable>;
type MemberValues = Omit<Insertable<HouseholdMembersTable>, 'customer_id'>;

interface Plan {
  customer: CustomerValues;
  members: MemberValues[];
  /** Index of an earlier customer who recommended this one. */
  recommendedBy?: number;
}

/** Names of the demo lead sources (scripts/seed-demo.ts) by role in the book. */
const SOURCES = {
  website: 'Website-Kontaktformular',
  referral: 'Empfehlung',
  telemarketing: 'Telefonmarketing',
  portal: 'Vergleichsportal',
  fair: 'Messe Bern (BEA)',
  social: 'Social Media',
  walkIn: 'Laufkundschaft',
};

/** Customers in the demo book (about 48 per consultant, 14 unassigned). */
export const DEMO_CUSTOMER_TOTAL = 110;

export async function seedDemoCustomers(db: DB): Promise<void> {
  const users = await db.selectFrom('users').select(['id', 'email']).execute();
  const userId = (email: string) => {
    const user = users.find((candidate) => candidate.email === email);
    if (!user) throw new Error(`seed customers: no demo user ${email}`);
    return Number(user.id);
  };
  const sources = await db.selectFrom('lead_sources').select(['id', 'name_de']).execute();
  const sourceId = (name: string) => {
    const source = sources.find((candidate) => candidate.name_de === name);
    if (!source) throw new Error(`seed customers: no demo lead source ${name}`);
    return Number(source.id);
  };
  // A partner brokerage that brought some of the customers (its external users see only those).
  // Created here unless the demo already has sub-brokers.
  let subBroker = await db.selectFrom('sub_brokers').select('id').orderBy('id').executeTakeFirst();
  subBroker ??= await db
    .insertInto('sub_brokers')
    .values({
      name: 'Finanzpartner Aarau GmbH',
      email: 'kontakt@finanzpartner-aarau.ch',
      phone: storedPhone('062 822 41 10'),
      address: 'Bahnhofstrasse',
      address_no: '21',
      zipcode: '5000',
      city: 'Aarau',
      uid: 'CHE-219.417.663',
      contact_name: 'Roger Amsler',
      contact_email: 'roger.amsler@finanzpartner-aarau.ch',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const subBrokerId = Number(subBroker.id);
  const consultant = userId('consultant@demo.gscrm.ch');
  const consultant2 = userId('consultant2@demo.gscrm.ch');

  const rnd = random(20260601);
  const plans: Plan[] = [];
  const companies = [...COMPANIES];
  for (let index = 0; index < DEMO_CUSTOMER_TOTAL; index++) {
    // Alternating between the two consultants (the first is consultant@'s); every eighth is an
    // unassigned lead from the website or a comparison portal.
    const owner: number | null =
      index > 0 && index % 8 === 5 ? null : index % 2 === 0 ? consultant : consultant2;
    let region: Region;
    if (owner === consultant) region = 'de';
    else if (owner === consultant2) region = rnd.chance(0.2) ? 'it' : 'fr';
    else region = rnd.pick(['de', 'de', 'fr', 'it'] as const);

    const place = rnd.pick(PLACES[region]);
    const street = rnd.pick(STREETS[region]);
    const landline = storedPhone(
      `${place.phone} ${rnd.int(200, 999)} ${pad(rnd.int(10, 99))} ${pad(rnd.int(10, 99))}`,
    );
    const mobile = `07${rnd.pick(['6', '7', '8', '9'])} ${rnd.int(200, 999)} ${pad(rnd.int(10, 99))} ${pad(rnd.int(10, 99))}`;
    const source =
      owner === null
        ? sourceId(rnd.pick([SOURCES.website, SOURCES.portal, SOURCES.social]))
        : sourceId(
            rnd.pick([
              SOURCES.referral,
              SOURCES.referral,
              SOURCES.website,
              SOURCES.telemarketing,
              SOURCES.portal,
              SOURCES.fair,
              SOURCES.walkIn,
            ]),
          );
    const language = region === 'de' ? 'de' : region;
    const base: Omit<CustomerValues, 'first_name' | 'last_name'> = {
      street,
      address_number: String(rnd.int(1, 120)) + (rnd.chance(0.1) ? 'a' : ''),
      zip: place.zip,
      city: place.city,
      country: 'CH',
      correspondence_languages: JSON.stringify([language]),
      lead_source: source,
      assigned_to: owner,
      sub_broker_id: region === 'de' && index % 10 === 7 ? subBrokerId : null,
      notes: rnd.chance(0.3) ? rnd.pick(NOTES[region]) : null,
    };

    // Every ninth customer (but not the first) is a company, while the list lasts.
    const companyIndex = companies.findIndex((company) => company.region === region);
    if (index % 9 === 4 && companyIndex >= 0) {
      const company = companies.splice(companyIndex, 1)[0];
      const female = rnd.chance(0.5);
      plans.push({
        customer: {
          ...base,
          is_company: true,
          organization: company.name,
          first_name: rnd.pick(FIRST[region][female ? 'female' : 'male']),
          last_name: rnd.pick(LAST[region]),
          email: `info@${company.domain}`,
          phone_number: landline,
          languages: JSON.stringify([language]),
          info_comment: rnd.chance(0.5) ? 'KMU, Kollektivversicherung BVG prüfen' : null,
        },
        members: [],
      });
      continue;
    }

    const foreign = rnd.chance(0.22) ? rnd.pick(FOREIGN) : undefined;
    const female = rnd.chance(0.5);
    const firstName = rnd.pick(
      FIRST[foreign?.language === 'it' ? 'it' : region][female ? 'female' : 'male'],
    );
    const lastName = foreign ? rnd.pick(foreign.last) : rnd.pick(LAST[region]);
    const birthYear = rnd.int(1948, 2001);
    const birth = date(birthYear, rnd.int(1, 12), rnd.int(1, 28));
    const age = 2026 - birthYear;
    const marital =
      age < 27
        ? 'single'
        : rnd.pick([
            'married',
            'married',
            'married',
            'single',
            'divorced',
            'registered_partnership',
            age > 65 ? 'widowed' : 'married',
          ]);
    const partnershipYear = Math.min(2025, birthYear + rnd.int(24, 34));
    const partnership =
      marital === 'married' || marital === 'registered_partnership' || marital === 'widowed'
        ? date(partnershipYear, rnd.int(1, 12), rnd.int(1, 28))
        : null;
    const spoken = [
      language,
      ...(foreign ? [foreign.language] : []),
      ...(rnd.chance(0.4) ? ['en'] : []),
    ];
    const customer: CustomerValues = {
      ...base,
      is_company: false,
      first_name: firstName,
      last_name: lastName,
      gender: female ? 'female' : 'male',
      date_of_birth: birth,
      marital_status: marital,
      partnership_date: partnership,
      nationality: foreign?.nationality ?? 'CH',
      permit_type: foreign?.permit ?? null,
      email: rnd.chance(0.85)
        ? `${ascii(firstName)}.${ascii(lastName)}${rnd.chance(0.3) ? rnd.int(1, 99) : ''}@${rnd.pick(MAIL_DOMAINS)}`
        : null,
      phone_number: rnd.chance(0.8)
        ? storedPhone(rnd.chance(0.2) ? `+41 ${mobile.slice(1)}` : mobile)
        : landline,
      languages: JSON.stringify([...new Set(spoken)]),
      other_languages: foreign && rnd.chance(0.3) ? 'Englisch (Grundkenntnisse)' : null,
    };

    const members: MemberValues[] = [];
    if (partnership && marital !== 'widowed') {
      const spouseFemale = marital === 'registered_partnership' ? female : !female;
      const spouseBirthYear = Math.max(1946, Math.min(2001, birthYear + rnd.int(-4, 4)));
      members.push({
        relation: marital === 'married' ? 'spouse' : 'partner',
        first_name: rnd.pick(FIRST[region][spouseFemale ? 'female' : 'male']),
        last_name: lastName,
        gender: spouseFemale ? 'female' : 'male',
        date_of_birth: date(spouseBirthYear, rnd.int(1, 12), rnd.int(1, 28)),
        marital_status: marital,
        partnership_date: partnership,
        nationality: customer.nationality,
        permit_type: customer.permit_type,
        occupation: rnd.pick([
          'Lehrerin',
          'Pflegefachfrau',
          'Informatiker',
          'Kaufmann',
          'Architektin',
          'Koch',
        ]),
        same_household: true,
      });
      const children = age < 70 ? rnd.int(0, 3) : 0;
      for (let child = 0; child < children; child++) {
        const childFemale = rnd.chance(0.5);
        const childYear = Math.min(2024, partnershipYear + rnd.int(1, 12));
        members.push({
          relation: 'child',
          first_name: rnd.pick(CHILDREN[region][childFemale ? 'female' : 'male']),
          last_name: lastName,
          gender: childFemale ? 'female' : 'male',
          date_of_birth: date(childYear, rnd.int(1, 12), rnd.int(1, 28)),
          marital_status: 'single',
          nationality: customer.nationality,
          permit_type: customer.permit_type,
          occupation: childYear < 2008 ? 'Lernende/r' : null,
          same_household: childYear > 2004,
        });
      }
    }
    if (age > 40 && age < 60 && rnd.chance(0.08)) {
      members.push({
        relation: 'parent',
        first_name: rnd.pick(FIRST[region][rnd.chance(0.5) ? 'female' : 'male']),
        last_name: lastName,
        date_of_birth: date(birthYear - rnd.int(24, 32), rnd.int(1, 12), rnd.int(1, 28)),
        marital_status: 'widowed',
        nationality: customer.nationality,
        permit_type: customer.permit_type,
        same_household: false,
      });
    }
    const plan: Plan = { customer, members };
    if (source === sourceId(SOURCES.referral) && plans.length > 3) {
      if (rnd.chance(0.6)) {
        const candidates = plans
          .map((earlier, at) => ({ earlier, at }))
          .filter(
            ({ earlier }) => earlier.customer.assigned_to === owner && !earlier.customer.is_company,
          );
        if (candidates.length > 0) plan.recommendedBy = rnd.pick(candidates).at;
      } else {
        customer.recommended_by = rnd.pick([
          'Arbeitskollege',
          'Nachbarin',
          'Turnverein',
          'Familie',
        ]);
      }
    }
    plans.push(plan);
  }

  // Oldest first: ids grow with created_at, so 'newest' lists the latest ones first.
  const now = Date.now();
  const day = 24 * 3600 * 1000;
  const rows = plans.map((plan, at) => ({
    ...plan.customer,
    created_at: new Date(now - (plans.length - at) * 6 * day + rnd.int(8, 17) * 3600 * 1000),
  }));
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += 200) {
    const inserted = await db
      .insertInto('customers')
      .values(rows.slice(start, start + 200).map((row) => ({ ...row, updated_at: row.created_at })))
      .returning('id')
      .execute();
    ids.push(...inserted.map((row) => Number(row.id)));
  }
  for (const [at, plan] of plans.entries()) {
    if (plan.recommendedBy === undefined) continue;
    await db
      .updateTable('customers')
      .set({ recommended_by_customer_id: ids[plan.recommendedBy] })
      .where('id', '=', ids[at])
      .execute();
  }
  const members = plans.flatMap((plan, at) =>
    plan.members.map((member) => ({ ...member, customer_id: ids[at] })),
  );
  if (members.length > 0) await db.insertInto('household_members').values(members).execute();
}
