/**
 * Demo Global checks (issue 19): saved checks of four of the consultants' customers of working
 * age, prefilled as the screen prefills them (server/global-check defaultsOf: birth date, sex,
 * civil status, partner and children from the household) and computed as a save computes them
 * (own cover from their contracts, results of the engine): an employee checked twice a year apart
 * (a raise between, to compare), an employee with missing AHV years, a self-employed customer and
 * one checked with the statutory benefits only.
 */
import dayjs from 'dayjs';
import { toSnakeDeep } from '../../src/schema/case.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { ownCoverOf, resultsOf } from '../global-check/check.ts';
import { defaultsOf } from '../global-check/index.ts';

interface Plan {
  income: number;
  employment: 'employed' | 'self_employed';
  extra?: ResourceRow;
  /** Checked a year earlier too, with this income. */
  before?: number;
}

const PLANS: Plan[] = [
  { income: 96_000, employment: 'employed', before: 88_000 },
  {
    income: 124_000,
    employment: 'employed',
    extra: { has_pension_missing_years: true, gap_years: 3, bvg_savings: 185_000 },
  },
  { income: 72_000, employment: 'self_employed', extra: { need_share: 70 } },
  { income: 58_000, employment: 'employed', extra: { calculation_type: 'legal', need_share: 90 } },
];

export async function seedDemoGlobalChecks(db: DB, now: number = Date.now()): Promise<void> {
  const today = swissToday(now);
  const lastYear = dayjs(today).subtract(1, 'year').format('YYYY-MM-DD');
  const oldest = dayjs(today).subtract(60, 'year').format('YYYY-MM-DD');
  const youngest = dayjs(today).subtract(25, 'year').format('YYYY-MM-DD');
  const customers = await db
    .selectFrom('customers')
    .selectAll()
    .where('assigned_to', 'is not', null)
    .where('is_company', '=', false)
    .where('gender', 'in', ['male', 'female'])
    .where('date_of_birth', '>=', oldest)
    .where('date_of_birth', '<=', youngest)
    .orderBy('id')
    .limit(PLANS.length)
    .execute();
  for (const [index, customer] of customers.entries()) {
    const plan = PLANS[index]!;
    const prefill = await defaultsOf(db, customer as ResourceRow);
    const birth = String(prefill.birth_date);
    const record: ResourceRow = {
      ...prefill,
      civil_status: prefill.civil_status ?? 'single',
      employment_status: plan.employment,
      employment_date: dayjs(birth).add(22, 'year').format('YYYY-MM-DD'),
      gross_income: plan.income,
      ...plan.extra,
    };
    const days = plan.before ? [lastYear, today] : [today];
    for (const day of days) {
      const row: ResourceRow = {
        ...record,
        gross_income: day === today ? plan.income : plan.before,
      };
      const ownCover = await ownCoverOf(db, row, day);
      const results = toSnakeDeep(resultsOf(row, ownCover, day));
      await db
        .insertInto('global_checks')
        .values({
          ...row,
          check_date: day,
          topics: JSON.stringify(row.topics),
          partner: JSON.stringify(row.partner ?? {}),
          children: JSON.stringify(row.children ?? []),
          own_cover: JSON.stringify(ownCover),
          results: JSON.stringify(results),
          note: day === today ? null : 'Vor der Lohnerhöhung',
        } as never)
        .execute();
    }
  }
}
