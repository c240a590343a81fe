/**
 * Demo data of issue 3 (identity and access): the staff users' entity and assignment data, three
 * sub-brokers (one below another) with payout rules, and one external user per demo sub-broker
 * account (external@demo.gscrm.ch, of "Brokerpartner Zentralschweiz AG"). Called by
 * scripts/seed-demo.ts inside its transaction, after the users and before the customers.
 */
import type { Updateable } from 'kysely';
import type { UsersTable } from '../../src/types/database.ts';
import type { DB } from '../db/index.ts';

/** A jsonb column's value as the database takes it (JSON text). */
const json = (value: unknown): string => JSON.stringify(value);

export const DEMO_EXTERNAL_USER = {
  email: 'external@demo.gscrm.ch',
  first_name: 'Fabienne',
  last_name: 'Zbinden',
  language: 'de',
  subBroker: 'Brokerpartner Zentralschweiz AG',
} as const;

const SUB_BROKERS = [
  {
    name: 'Brokerpartner Zentralschweiz AG',
    email: 'info@brokerpartner-zs.example.ch',
    phone: '+41412105500',
    address: 'Pilatusstrasse',
    address_no: '18',
    zipcode: '6003',
    city: 'Luzern',
    uid: 'CHE-123.456.789',
    contact_name: 'Urs Zimmermann',
    contact_email: 'u.zimmermann@brokerpartner-zs.example.ch',
    contact_phone: '+41412105501',
  },
  {
    name: 'Vorsorge Partner Bern GmbH',
    email: 'kontakt@vorsorge-bern.example.ch',
    phone: '+41313184040',
    address: 'Spitalgasse',
    address_no: '4',
    zipcode: '3011',
    city: 'Bern',
    uid: 'CHE-987.654.321',
    contact_name: 'Sandra Baumann',
    contact_email: 's.baumann@vorsorge-bern.example.ch',
    contact_phone: '+41313184041',
  },
  {
    name: 'Brokerpartner Zug',
    parent: 'Brokerpartner Zentralschweiz AG',
    email: 'zug@brokerpartner-zs.example.ch',
    phone: '+41417102020',
    address: 'Baarerstrasse',
    address_no: '75',
    zipcode: '6300',
    city: 'Zug',
    uid: 'CHE-246.813.579',
    contact_name: 'Lukas Iten',
    contact_email: 'l.iten@brokerpartner-zs.example.ch',
    contact_phone: '+41417102021',
  },
] as const;

/** Entity and assignment data of the demo staff (by email). */
const STAFF: Record<string, Updateable<UsersTable> & { leaderEmail?: string }> = {
  'admin@demo.gscrm.ch': {
    work_location: 'zurich',
    job_title_id: 'management',
    languages: json(['de', 'en']),
    district_ids: json(['ZH']),
    show_on_leaderboard: false,
    reports: json(['clients', 'contracts', 'appointments', 'leads']),
  },
  'backoffice@demo.gscrm.ch': {
    work_location: 'zurich',
    job_title_id: 'back_office',
    languages: json(['de', 'fr']),
    district_ids: json(['ZH', 'AG']),
    show_on_leaderboard: false,
    reports: json(['clients', 'contracts']),
  },
  'callcenter@demo.gscrm.ch': {
    work_location: 'switzerland',
    job_title_id: 'call_centre_agent',
    languages: json(['it', 'de']),
    district_ids: json(['TI']),
    show_on_leaderboard: false,
  },
  'consultant@demo.gscrm.ch': {
    work_location: 'zurich',
    job_title_id: 'team_lead',
    languages: json(['de', 'en']),
    district_ids: json(['ZH', 'ZG', 'SZ']),
    is_sales_teamlead: true,
    is_finma_registered: true,
    finma_number: 'F01234567',
    finma_config: json({
      life_insurance: true,
      non_life_insurance: true,
      registered_since: '2019-03-01',
    }),
    chf_per_star: 150,
    star_health: 1,
    share_of_mandate_business: 50,
    closures_pass_on_rate: 70,
    payment_type: 'mixed',
    date_of_birth: '1984-06-12',
    street: 'Seefeldstrasse',
    address_number: '12',
    zip: '8008',
    city: 'Zürich',
    gender: 'male',
  },
  'consultant2@demo.gscrm.ch': {
    work_location: 'montreux',
    job_title_id: 'consultant',
    languages: json(['fr', 'de']),
    district_ids: json(['VD', 'VS', 'FR']),
    is_finma_registered: true,
    finma_number: 'F07654321',
    finma_config: json({
      life_insurance: false,
      non_life_insurance: true,
      registered_since: '2022-09-15',
    }),
    chf_per_star: 120,
    star_health: 1,
    share_of_mandate_business: 40,
    closures_pass_on_rate: 60,
    payment_type: 'commission',
    date_of_birth: '1991-02-03',
    street: 'Grand-Rue',
    address_number: '40',
    zip: '1820',
    city: 'Montreux',
    gender: 'female',
    leaderEmail: 'consultant@demo.gscrm.ch',
  },
};

export async function seedDemoIdentity(trx: DB, passwordHash: string): Promise<void> {
  const ids = new Map<string, number>();
  for (const broker of SUB_BROKERS) {
    const { parent, ...values } = { parent: undefined, ...broker } as typeof broker & {
      parent?: string;
    };
    const row = await trx
      .insertInto('sub_brokers')
      .values({ ...values, parent_id: parent ? ids.get(parent) : null })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set(broker.name, Number(row.id));
  }
  const idOf = (broker: string): number => {
    const id = ids.get(broker);
    if (id === undefined) throw new Error(`seed identity: no demo sub-broker ${broker}`);
    return id;
  };
  const rules = [
    ['Brokerpartner Zentralschweiz AG', '2025-01-01', null, 40, 20, 'health'],
    ['Brokerpartner Zentralschweiz AG', '2025-01-01', null, 30, 20, 'life'],
    ['Vorsorge Partner Bern GmbH', '2024-07-01', '2025-12-31', 35, 25, 'life'],
    ['Brokerpartner Zug', '2025-04-01', null, 25, 10, 'property_casualty'],
  ] as const;
  await trx
    .insertInto('sub_broker_rules')
    .values(
      rules.map(([broker, from, to, payout, share, type]) => ({
        organization_id: idOf(broker),
        date_from: from,
        date_to: to,
        percentage_payout: payout,
        share_of_mandate_business: share,
        insurance_type: type,
        company_ids: '[]',
        is_active: true,
      })),
    )
    .execute();

  const users = await trx.selectFrom('users').select(['id', 'email']).execute();
  const userId = new Map(users.map((user) => [String(user.email), Number(user.id)]));
  for (const [email, data] of Object.entries(STAFF)) {
    const { leaderEmail, ...values } = data;
    const leader = leaderEmail ? { leader: userId.get(leaderEmail) } : {};
    await trx
      .updateTable('users')
      .set({ ...values, ...leader })
      .where('email', '=', email)
      .execute();
  }

  const login = await trx
    .insertInto('users')
    .values({
      email: DEMO_EXTERNAL_USER.email,
      first_name: DEMO_EXTERNAL_USER.first_name,
      last_name: DEMO_EXTERNAL_USER.last_name,
      language: DEMO_EXTERNAL_USER.language,
      role: 'PARTNER',
      is_active: true,
      additional_permissions: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('user_credentials')
    .values({ user_id: login.id, password_hash: passwordHash })
    .execute();
  await trx
    .insertInto('external_users')
    .values({
      email: DEMO_EXTERNAL_USER.email,
      first_name: DEMO_EXTERNAL_USER.first_name,
      last_name: DEMO_EXTERNAL_USER.last_name,
      language: DEMO_EXTERNAL_USER.language,
      phone: '+41412105502',
      sub_broker_id: idOf(DEMO_EXTERNAL_USER.subBroker),
      is_active: true,
      user_id: login.id,
    })
    .execute();
}
