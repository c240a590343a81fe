/**
 * Demo data: a small Swiss brokerage — real Swiss insurers (names only), lead sources and one
 * account per role. Loaded on first start in demo mode only (embedded database); production seeds
 * nothing (see scripts/create-admin.ts). The product catalogue is reference data in the migrations.
 */
import { hashPassword } from '../auth/password.ts';
import type { DB } from '../db/index.ts';
import { refreshStatistics } from '../db/statistics.ts';
import { seedDemoAppointments } from './appointments.ts';
import { seedDemoCommissions } from './commissions.ts';
import { seedDemoLeads } from './leads.ts';
import { seedDemoOffers } from './offers.ts';
import { seedDemoComparisons } from './comparisons.ts';
import { seedDemoGlobalChecks } from './globalChecks.ts';
import { seedDemoSignatures } from './signatures.ts';
import { seedDemoContracts } from './contracts.ts';
import { seedDemoCustomers } from './customers.ts';
import { seedDemoIdentity } from './identity.ts';

export const DEMO_USERS = [
  {
    email: 'admin@demo.gscrm.ch',
    role: 'ADMIN',
    first_name: 'Andrea',
    last_name: 'Meier',
    language: 'de',
  },
  {
    email: 'backoffice@demo.gscrm.ch',
    role: 'BACKOFFICE',
    first_name: 'Beatrice',
    last_name: 'Keller',
    language: 'de',
  },
  {
    email: 'callcenter@demo.gscrm.ch',
    role: 'BACKOFFICE-CALLCENTER',
    first_name: 'Chiara',
    last_name: 'Rossi',
    language: 'it',
  },
  {
    email: 'consultant@demo.gscrm.ch',
    role: 'CONSULTANT',
    first_name: 'Daniel',
    last_name: 'Müller',
    language: 'de',
  },
  {
    email: 'consultant2@demo.gscrm.ch',
    role: 'CONSULTANT',
    first_name: 'Élodie',
    last_name: 'Favre',
    language: 'fr',
  },
  {
    email: 'employee@demo.gscrm.ch',
    role: 'EMPLOYEE',
    first_name: 'Emil',
    last_name: 'Brunner',
    language: 'de',
  },
  {
    email: 'partner@demo.gscrm.ch',
    role: 'PARTNER',
    first_name: 'Patrick',
    last_name: 'Huber',
    language: 'en',
  },
] as const;

type Groups = Array<'health' | 'life' | 'property_casualty' | 'finance' | 'other'>;
interface Insurer {
  name: string;
  fr?: string;
  it?: string;
  partner: boolean;
  types: Groups;
  products: number[];
}

const HEALTH = [1, 2, 3];
const LIFE = [4, 5, 6];
const PNC = [7, 8, 9, 10, 11, 12, 13, 16, 17];

/** Swiss insurers, names only; product ids refer to the fixed catalogue (migration 0003). */
export const DEMO_INSURERS: Insurer[] = [
  { name: 'CSS', partner: true, types: ['health'], products: HEALTH },
  { name: 'Helsana', partner: true, types: ['health'], products: HEALTH },
  { name: 'Swica', partner: true, types: ['health'], products: HEALTH },
  { name: 'Sanitas', partner: true, types: ['health'], products: HEALTH },
  { name: 'Concordia', partner: false, types: ['health'], products: HEALTH },
  {
    name: 'Visana',
    partner: true,
    types: ['health', 'property_casualty'],
    products: [...HEALTH, 10, 13],
  },
  { name: 'Groupe Mutuel', partner: true, types: ['health', 'life'], products: [...HEALTH, 4, 5] },
  { name: 'Assura', partner: false, types: ['health'], products: [1] },
  { name: 'KPT', partner: false, types: ['health'], products: HEALTH },
  { name: 'Atupri', partner: false, types: ['health'], products: HEALTH },
  { name: 'ÖKK', fr: 'ÖKK', it: 'ÖKK', partner: false, types: ['health'], products: HEALTH },
  {
    name: 'Sympany',
    partner: true,
    types: ['health', 'property_casualty'],
    products: [...HEALTH, 10, 13],
  },
  {
    name: 'EGK-Gesundheitskasse',
    fr: 'EGK-Caisse de santé',
    it: 'EGK-Cassa della salute',
    partner: false,
    types: ['health'],
    products: HEALTH,
  },
  { name: 'Swiss Life', partner: true, types: ['life'], products: LIFE },
  { name: 'PAX', partner: true, types: ['life'], products: LIFE },
  { name: 'AXA', partner: true, types: ['life', 'property_casualty'], products: [...LIFE, ...PNC] },
  {
    name: 'Zürich Versicherung',
    fr: 'Zurich Assurance',
    it: 'Zurich Assicurazione',
    partner: true,
    types: ['life', 'property_casualty'],
    products: [...LIFE, ...PNC],
  },
  {
    name: 'Allianz Suisse',
    partner: true,
    types: ['life', 'property_casualty'],
    products: [...LIFE, ...PNC],
  },
  {
    name: 'Baloise',
    fr: 'Bâloise',
    it: 'Basilese',
    partner: true,
    types: ['life', 'property_casualty'],
    products: [...LIFE, ...PNC],
  },
  {
    name: 'Helvetia',
    partner: true,
    types: ['life', 'property_casualty'],
    products: [...LIFE, ...PNC, 14, 19],
  },
  {
    name: 'Generali',
    partner: true,
    types: ['life', 'property_casualty'],
    products: [...LIFE, ...PNC],
  },
  {
    name: 'Die Mobiliar',
    fr: 'La Mobilière',
    it: 'La Mobiliare',
    partner: false,
    types: ['property_casualty'],
    products: [...PNC, 17, 18, 19],
  },
  {
    name: 'Vaudoise',
    partner: true,
    types: ['life', 'property_casualty'],
    products: [...LIFE, ...PNC],
  },
  { name: 'Smile', partner: false, types: ['property_casualty'], products: [7, 8, 10, 13] },
  { name: 'TCS', partner: false, types: ['property_casualty'], products: [7, 12] },
  { name: 'Simpego', partner: false, types: ['property_casualty'], products: [7, 10, 13] },
  {
    name: 'Emmental Versicherung',
    fr: 'Emmental Assurance',
    it: 'Emmental Assicurazione',
    partner: false,
    types: ['property_casualty'],
    products: [10, 13, 17],
  },
  {
    name: 'Protekta Rechtsschutz',
    fr: 'Protekta Protection juridique',
    it: 'Protekta Protezione giuridica',
    partner: false,
    types: ['property_casualty'],
    products: [9],
  },
  {
    name: 'Dextra Rechtsschutz',
    fr: 'Dextra Protection juridique',
    it: 'Dextra Protezione giuridica',
    partner: false,
    types: ['property_casualty'],
    products: [9],
  },
  { name: 'Epona', partner: false, types: ['property_casualty'], products: [15] },
];

const LEAD_SOURCES = [
  {
    de: 'Website-Kontaktformular',
    fr: 'Formulaire de contact du site',
    it: 'Modulo di contatto del sito',
    en: 'Website contact form',
    group: 'internal',
    roles: ['ADMIN', 'BACKOFFICE', 'BACKOFFICE-CALLCENTER', 'CONSULTANT'],
  },
  {
    de: 'Empfehlung',
    fr: 'Recommandation',
    it: 'Raccomandazione',
    en: 'Referral',
    group: 'internal',
    roles: ['ADMIN', 'BACKOFFICE', 'BACKOFFICE-CALLCENTER', 'CONSULTANT'],
  },
  {
    de: 'Telefonmarketing',
    fr: 'Télémarketing',
    it: 'Telemarketing',
    en: 'Telemarketing',
    group: 'internal',
    roles: ['ADMIN', 'BACKOFFICE', 'BACKOFFICE-CALLCENTER'],
  },
  {
    de: 'Vergleichsportal',
    fr: 'Comparateur en ligne',
    it: 'Portale di confronto',
    en: 'Comparison portal',
    group: 'special',
    roles: ['ADMIN', 'BACKOFFICE', 'BACKOFFICE-CALLCENTER', 'CONSULTANT'],
  },
  {
    de: 'Messe Bern (BEA)',
    fr: 'Foire de Berne (BEA)',
    it: 'Fiera di Berna (BEA)',
    en: 'Bern fair (BEA)',
    group: 'special',
    roles: ['ADMIN', 'BACKOFFICE', 'CONSULTANT'],
  },
  {
    de: 'Partnerbank',
    fr: 'Banque partenaire',
    it: 'Banca partner',
    en: 'Partner bank',
    group: 'special',
    roles: ['ADMIN', 'BACKOFFICE'],
  },
  {
    de: 'Social Media',
    fr: 'Réseaux sociaux',
    it: 'Social media',
    en: 'Social media',
    group: 'other',
    roles: ['ADMIN', 'BACKOFFICE', 'BACKOFFICE-CALLCENTER', 'CONSULTANT'],
  },
  {
    de: 'Laufkundschaft',
    fr: 'Clients de passage',
    it: 'Clienti di passaggio',
    en: 'Walk-in',
    group: 'other',
    roles: ['ADMIN', 'BACKOFFICE', 'CONSULTANT'],
  },
] as const;

/** Answers true when it loaded the demo, false when the demo was already there. */
/**
 * `commissions: false` leaves the commission rules, lines and payouts out (API tests and e2e keep a
 * ledger of their own: DEMO_COMMISSIONS=0).
 */
export async function seedDemo(
  db: DB,
  options: { password: string; commissions?: boolean },
): Promise<boolean> {
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', DEMO_USERS[0].email)
    .executeTakeFirst();
  if (existing) return false;
  const passwordHash = await hashPassword(options.password);
  await db.transaction().execute(async (trx) => {
    const users = await trx
      .insertInto('users')
      .values(
        DEMO_USERS.map((user) => ({ ...user, is_active: true, additional_permissions: '[]' })),
      )
      .returning('id')
      .execute();
    await trx
      .insertInto('user_credentials')
      .values(users.map((user) => ({ user_id: user.id, password_hash: passwordHash })))
      .execute();
    await trx
      .insertInto('companies')
      .values(
        DEMO_INSURERS.map((insurer) => ({
          name_de: insurer.name,
          name_fr: insurer.fr ?? insurer.name,
          name_it: insurer.it ?? insurer.name,
          name_en: insurer.name,
          is_partner: insurer.partner,
          insurance_types: JSON.stringify(insurer.types),
          products: JSON.stringify(insurer.products),
        })),
      )
      .execute();
    await trx
      .insertInto('lead_sources')
      .values(
        LEAD_SOURCES.map((source) => ({
          name_de: source.de,
          name_fr: source.fr,
          name_it: source.it,
          name_en: source.en,
          group: source.group,
          visible_roles: JSON.stringify(source.roles),
          // Bought comparison-portal leads: the call centre qualifies them; consultants see the
          // contact details once an appointment is booked (src/schema/leads.ts).
          hide_contact: source.de === 'Vergleichsportal',
          assigned_notify: source.group !== 'other',
          email_to: JSON.stringify({
            enabled: source.group === 'special',
            email: 'leads@demo.gscrm.ch',
            bcc: '',
            subject: `Neuer Lead: ${source.de}`,
          }),
          feedback_to: JSON.stringify({
            enabled: false,
            email: 'feedback@demo.gscrm.ch',
            bcc: '',
            subject: `Feedback: ${source.de}`,
          }),
        })),
      )
      .execute();
    await seedDemoIdentity(trx, passwordHash);
    await seedDemoCustomers(trx);
    await seedDemoContracts(trx);
    await seedDemoAppointments(trx);
    await seedDemoLeads(trx);
    await seedDemoOffers(trx);
    await seedDemoComparisons(trx);
    await seedDemoGlobalChecks(trx);
    await seedDemoSignatures(trx);
    if (options.commissions ?? process.env.DEMO_COMMISSIONS !== '0') await seedDemoCommissions(trx);
  });
  // The planner's statistics of the tables just filled (PGlite never analyses by itself).
  await refreshStatistics(db);
  return true;
}
