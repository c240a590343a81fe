/**
 * A user's pay terms over time (user-terms; issue 17): the users' assignment fields, kept as a
 * history so a closure is paid by the terms valid when it was signed, whatever changed since.
 * The migration seeded every user's terms from 1900-01-01; a user's write that changes them adds
 * a row valid from that (Swiss) day (the same day twice: the later write wins). A user with no row
 * valid on a date is paid by their current terms.
 */
import { sql } from 'kysely';
import { swissToday } from '../../src/schema/swiss-time.ts';
import type { HookContext } from '../crud/hooks.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { dateText } from '../customers/rules.ts';

export const TERM_COLUMNS = [
  'chf_per_star',
  'star_health',
  'share_of_mandate_business',
  'closures_pass_on_rate',
  'payment_type',
] as const;

export interface Terms {
  chfPerStar: number;
  starHealth: number | null;
  shareOfMandateBusiness: number;
  closuresPassOnRate: number;
  paymentType: string | null;
}

const NO_TERMS: Terms = {
  chfPerStar: 0,
  starHealth: null,
  shareOfMandateBusiness: 0,
  closuresPassOnRate: 0,
  paymentType: null,
};

/** Users' terms over time, read once; `on` answers those valid on a date. */
export interface TermsHistory {
  on(userIds: number[], date: string): Map<number, Terms>;
}

const termsFromRow = (row: {
  chf_per_star: number | null;
  star_health: number | null;
  share_of_mandate_business: number | null;
  closures_pass_on_rate: number | null;
  payment_type: string | null;
}): Terms => ({
  chfPerStar: row.chf_per_star ?? 0,
  starHealth: row.star_health ?? null,
  shareOfMandateBusiness: row.share_of_mandate_business ?? 0,
  closuresPassOnRate: row.closures_pass_on_rate ?? 0,
  paymentType: row.payment_type ?? null,
});

/**
 * The terms history of users (two statements for all of them): on a date, each user's latest row
 * valid from then or before; a user without such a row (written straight to the table, as the
 * demo does) is paid by their current terms.
 */
export async function termsHistory(db: DB, userIds: number[]): Promise<TermsHistory> {
  const unique = [...new Set(userIds)];
  const rows = new Map<number, Array<{ from: string; terms: Terms }>>();
  const current = new Map<number, Terms>();
  if (unique.length > 0) {
    for (const row of await db
      .selectFrom('user_terms')
      .select(['user_id', 'valid_from', ...TERM_COLUMNS])
      .where('user_id', 'in', unique)
      .orderBy('user_id')
      .orderBy('valid_from')
      .execute())
      rows.set(row.user_id, [
        ...(rows.get(row.user_id) ?? []),
        { from: dateText(row.valid_from) ?? '', terms: termsFromRow(row) },
      ]);
    for (const row of await db
      .selectFrom('users')
      .select(['id', ...TERM_COLUMNS])
      .where('id', 'in', unique)
      .execute())
      current.set(row.id, termsFromRow(row));
  }
  return {
    on(ids, date) {
      const out = new Map<number, Terms>();
      for (const id of new Set(ids)) {
        const valid = (rows.get(id) ?? []).filter((row) => row.from <= date).at(-1);
        const terms = valid?.terms ?? current.get(id);
        if (terms) out.set(id, terms);
      }
      return out;
    },
  };
}

export const termsOf = (terms: Map<number, Terms>, userId: number): Terms =>
  terms.get(userId) ?? NO_TERMS;

/** users afterWrite: a change of the pay terms (or a new user) starts a row from today. */
export async function recordTerms(
  row: ResourceRow,
  context: HookContext & { mode: 'create' | 'update' | 'delete'; existing?: ResourceRow },
): Promise<void> {
  if (context.mode === 'delete') return;
  const changed =
    context.mode === 'create' ||
    TERM_COLUMNS.some((column) => (row[column] ?? null) !== (context.existing?.[column] ?? null));
  if (!changed) return;
  const values = {
    user_id: Number(row.id),
    valid_from: context.mode === 'create' ? '1900-01-01' : swissToday(),
    chf_per_star: (row.chf_per_star as number | null) ?? null,
    star_health: (row.star_health as number | null) ?? null,
    share_of_mandate_business: (row.share_of_mandate_business as number | null) ?? null,
    closures_pass_on_rate: (row.closures_pass_on_rate as number | null) ?? null,
    payment_type: (row.payment_type as string | null) ?? null,
  };
  await context.db
    .insertInto('user_terms')
    .values(values)
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'valid_from']).doUpdateSet({
        chf_per_star: values.chf_per_star,
        star_health: values.star_health,
        share_of_mandate_business: values.share_of_mandate_business,
        closures_pass_on_rate: values.closures_pass_on_rate,
        payment_type: values.payment_type,
        updated_at: sql`now()`,
      }),
    )
    .execute();
}
