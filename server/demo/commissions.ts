/**
 * Demo commissions (issue 17): rules for the demo products at the typical broker rates of
 * DOMAIN.md §2 (health at the legal caps, P&C a share of the annual premium, life of the
 * production sum, a flat broker mandate, a portfolio rule for P&C), the demo closures settled by
 * the engine (server/commissions/engine.ts), and payouts: the older half of the lines paid, the
 * next quarter in a new payout waiting for approval, the newest ready — so my commissions, commissions, payouts and the
 * leaderboard show real figures on `npm start`. The demo book is written relative to a fixed day;
 * the leaderboard opens on the current month, so every consultant on it also closes a few
 * contracts this month and last month, relative to the day the demo is seeded (`recentClosures`).
 */
import { sql } from 'kysely';
import { swissToday } from '../../src/schema/swiss-time.ts';
import { recomputeAll } from '../commissions/routes.ts';
import { contractFigures } from '../contracts/figures.ts';
import type { DB } from '../db/index.ts';
import { random } from './random.ts';

const P_AND_C = [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21];

const RULES = [
  {
    name: 'KVG Grundversicherung (pauschal, gesetzliche Obergrenze)',
    product_ids: [1],
    calculation_basis: 'flat',
    flat_rate: 70,
    stars: 1,
    team_lead_stars: 0.25,
    liability_months: 12,
  },
  {
    name: 'VVG Zusatzversicherung (12 Monatsprämien)',
    product_ids: [2],
    calculation_basis: 'monthly_premium',
    premium_amount: 12,
    stars: 2,
    team_lead_stars: 0.5,
    liability_months: 12,
  },
  {
    name: 'Grund- und Zusatzversicherung (10 Monatsprämien)',
    product_ids: [3],
    calculation_basis: 'monthly_premium',
    premium_amount: 10,
    stars: 3,
    team_lead_stars: 0.5,
    liability_months: 12,
  },
  {
    name: 'Leben (2.5 % der Produktionssumme)',
    product_ids: [4, 5, 6],
    calculation_basis: 'production_sum',
    premium_amount: 2.5,
    stars: 5,
    team_lead_stars: 1,
    liability_months: 24,
  },
  {
    name: 'Sach und Haftpflicht (12 % der Jahresprämie)',
    product_ids: P_AND_C,
    calculation_basis: 'annual_premium',
    premium_amount: 12,
    stars: 1,
    team_lead_stars: 0.25,
    liability_months: 12,
  },
  {
    name: 'Maklermandat (pauschal)',
    product_ids: [28],
    calculation_basis: 'flat',
    flat_rate: 100,
    stars: 1,
    team_lead_stars: 0,
    liability_months: 0,
  },
  {
    name: 'Übrige Produkte (5 % der Jahresprämie)',
    product_ids: [],
    calculation_basis: 'annual_premium',
    premium_amount: 5,
    stars: 1,
    team_lead_stars: 0,
    liability_months: 0,
  },
] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * This month's and last month's sales (up to today): for every active consultant shown on the
 * leaderboard, 2–6 closures signed on days of each month, for customers of theirs — pillar 3a,
 * personal liability or household contents, from insurers offering the product, starting on the
 * first of the next month. The seed is fixed, the days follow the calendar.
 */
export async function recentClosures(db: DB, today = swissToday()): Promise<number> {
  const rnd = random(20261128);
  const consultants = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'CONSULTANT')
    .where('is_active', '=', true)
    .where('show_on_leaderboard', '=', true)
    .orderBy('id')
    .execute();
  const companies = await db
    .selectFrom('companies')
    .select(['id', 'products'])
    .orderBy('id')
    .execute();
  const offering = (product: number) =>
    companies
      .filter((company) => ((company.products ?? []) as number[]).includes(product))
      .map((company) => Number(company.id));
  const [year, month, date] = today.split('-').map(Number) as [number, number, number];
  const months: Array<[number, number, number]> = [
    // [year, month, last day to sign on]
    month === 1 ? [year - 1, 12, 28] : [year, month - 1, 28],
    [year, month, date],
  ];
  const rows: Array<Record<string, unknown>> = [];
  let number = 9000;
  for (const consultant of consultants) {
    const customers = await db
      .selectFrom('customers')
      .select('id')
      .where('assigned_to', '=', consultant.id)
      .where('is_company', '=', false)
      .orderBy('id')
      .limit(40)
      .execute();
    if (customers.length === 0) continue;
    for (const [y, m, last] of months) {
      const start = m === 12 ? `${y + 1}-01-01` : `${y}-${pad(m + 1)}-01`;
      for (let count = rnd.int(2, 6); count > 0; count--) {
        const signing = `${y}-${pad(m)}-${pad(rnd.int(1, last))}`;
        const product = rnd.pick([4, 10, 10, 13, 13]);
        const insurers = offering(product);
        if (insurers.length === 0) continue;
        const life = product === 4;
        const premium = life ? rnd.pick([300, 400, 588]) : rnd.int(90, 420);
        const term = rnd.pick([10, 15, 20]);
        const coverage = life
          ? {}
          : {
              lines: [
                {
                  coverage: product === 10 ? 'Privathaftpflicht' : 'Hausrat',
                  sum: product === 10 ? 5_000_000 : rnd.pick([60_000, 80_000, 120_000]),
                  deductible: 200,
                  premium,
                },
              ],
              closure_type: 'new_business',
              insurance_group_type: 'family',
            };
        const figures = contractFigures({
          productGroup: life ? 'life' : 'property_casualty',
          paymentCycle: life ? 'monthly' : 'annual',
          insurance: life ? { premium, termYears: term } : {},
          coverage: life ? {} : { lines: [{ premium }] },
        });
        rows.push({
          contract_type: 'closure',
          customer_id: rnd.pick(customers).id,
          consultant_id: consultant.id,
          category: 'private',
          product_id: product,
          product_group: life ? 'life' : 'property_casualty',
          company_id: rnd.pick(insurers),
          contract_number: `GS-${y}-${++number}`,
          status: 'active',
          payment_cycle: life ? 'monthly' : 'annual',
          signing_date: signing,
          start_date: start,
          insurance: JSON.stringify(life ? { sub_product_id: 13, premium, term_years: term } : {}),
          coverage: JSON.stringify(coverage),
          annual_premium: figures.annualPremium,
          production_sum: figures.productionSum,
          protocol_missing: false,
        });
      }
    }
  }
  if (rows.length > 0)
    await db
      .insertInto('contracts')
      .values(rows as never)
      .execute();
  return rows.length;
}

export async function seedDemoCommissions(db: DB): Promise<void> {
  await recentClosures(db);
  await db
    .insertInto('commission_rules')
    .values([
      ...RULES.map((rule) => ({
        ...rule,
        product_ids: JSON.stringify(rule.product_ids),
        available_from: '2015-01-01',
        commission_type: 'acquisition',
      })),
      {
        name: 'Sach und Haftpflicht, Bestandespflege (5 % der Jahresprämie)',
        product_ids: JSON.stringify(P_AND_C),
        calculation_basis: 'annual_premium',
        premium_amount: 5,
        available_from: '2015-01-01',
        commission_type: 'portfolio',
      },
    ] as never)
    .execute();
  // Everyone's terms as the demo users have them, from the start (the engine pays by them).
  await sql`insert into user_terms (user_id, valid_from, chf_per_star, star_health, share_of_mandate_business, closures_pass_on_rate, payment_type)
    select id, date '1900-01-01', chf_per_star, star_health, share_of_mandate_business, closures_pass_on_rate, payment_type from users
    on conflict (user_id, valid_from) do nothing`.execute(db);
  await recomputeAll(db, { reason: 'contractChanged' });

  // Payouts: the older half of the payable lines paid, the next quarter in a new payout waiting
  // for approval, the newest quarter ready (what my commissions opens on).
  const periods = (
    await db
      .selectFrom('commission_lines')
      .select('period')
      .distinct()
      .where('status', '=', 'ready_present')
      .where('user_id', 'is not', null)
      .orderBy('period')
      .execute()
  ).map((row) => row.period);
  const paidUntil = periods[Math.floor(periods.length / 2)];
  const newUntil = periods[Math.floor((periods.length * 3) / 4)];
  if (!paidUntil || !newUntil || newUntil <= paidUntil) return;
  for (const [period, status] of [
    [paidUntil, 'paid'],
    [newUntil, 'new'],
  ] as const) {
    const users = await db
      .selectFrom('commission_lines')
      .select(['user_id'])
      .select((eb) => [
        eb.fn.sum<number>('amount').as('total'),
        eb.fn.countAll<number>().as('count'),
      ])
      .where('status', '=', 'ready_present')
      .where('user_id', 'is not', null)
      .where('period', '<=', period)
      .groupBy('user_id')
      .execute();
    for (const row of users) {
      if (row.user_id === null) continue;
      const total = Math.round(Number(row.total) / 5) * 5;
      const payout = await db
        .insertInto('payouts')
        .values({
          user_id: row.user_id,
          period,
          status,
          total,
          line_count: Number(row.count),
          ...(status === 'paid' ? { approved_at: sql`now()`, paid_at: sql`now()` } : {}),
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .updateTable('commission_lines')
        .set({ status: status === 'paid' ? 'paid' : 'in_payout', payout_id: payout.id })
        .where('status', '=', 'ready_present')
        .where('user_id', '=', row.user_id)
        .where('period', '<=', period)
        .execute();
    }
  }
}
