/**
 * The engine's own calls (issue 17; see ./index.ts):
 * - POST /api/commission-rules/test — "which rule applies?": for a contract (its facts, the rule,
 *   the courtage and the people's lines it would get now) or for a case typed in;
 * - POST /api/commissions/recompute — settles closures again (all, or the ids given), e.g. after
 *   a rule was corrected: changed results are reversed and written anew, unchanged ones stay;
 * - the batch itself (`recomputeAll`), used by the route, the daily job and the benchmark.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import {
  ageOn,
  capOf,
  chooseRule,
  courtageOf,
  type RuleCase,
  toCentimes,
} from '../../src/schema/commissions.ts';
import { contractFigures } from '../../src/schema/figures.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';
import { writeTransaction } from '../audit/context.ts';
import type { DB } from '../db/index.ts';
import { addError, type FieldErrors, issue, notFound, validationError } from '../http/errors.ts';
import { scopeExpression } from '../access/scope.ts';
import { scopeFor } from '../customers/access.ts';
import { contextFor, contractFacts, caseOf, settleContracts, targetLines } from './engine.ts';
import { loadRules } from './rules.ts';
import { compactCommissionSums } from './sums.ts';
import { refreshStatistics } from '../db/statistics.ts';

const ID = { type: 'integer', minimum: 1 } as const;
const DATE = { type: 'string', format: 'date' } as const;

interface TestBody {
  contract_id?: number;
  signing_date?: string;
  category?: 'private' | 'business';
  client_age?: number;
  birth_date?: string;
  company_id?: number;
  product_id?: number;
  sub_product_id?: number;
  sub_product_variant_id?: number;
  premium?: number;
  payment_cycle?: 'monthly' | 'quarterly' | 'semi_annual' | 'annual' | 'single';
  annual_premium?: number;
  production_sum?: number;
}

/**
 * Settles every closure (or those given) in batches of `batch` (`settleContracts`: a few
 * statements a batch), each batch one transaction (inside the caller's when it is given one, as
 * the demo seeding does).
 */
export async function recomputeAll(
  db: DB,
  options: {
    ids?: number[];
    batch?: number;
    by?: number | null;
    reason?: string;
    today?: string;
  } = {},
): Promise<{ contracts: number; reversed: number; written: number }> {
  const rules = await loadRules(db);
  const today = options.today ?? swissToday();
  let ids = options.ids;
  if (!ids) {
    ids = (
      await db
        .selectFrom('contracts')
        .select('id')
        .where('contract_type', '=', 'closure')
        .orderBy('id')
        .execute()
    ).map((row) => row.id);
  }
  const size = options.batch ?? 500;
  let reversed = 0;
  let written = 0;
  for (let at = 0; at < ids.length; at += size) {
    const chunk = ids.slice(at, at + size);
    const run = (fn: (trx: DB) => Promise<void>) =>
      db.isTransaction ? fn(db) : db.transaction().execute(fn);
    await run(async (trx) => {
      const done = await settleContracts(trx, chunk, {
        rules,
        today,
        by: options.by ?? null,
        reason: options.reason ?? 'ruleChanged',
      });
      reversed += done.reversed;
      written += done.written;
    });
    // The ledger grows as the batches go: the next batch's reads planned on its real size.
    await refreshStatistics(db);
  }
  // The batches' many small rows of totals folded into one a group.
  await compactCommissionSums(db);
  return { contracts: ids.length, reversed, written };
}

/**
 * Closures with a contract year that began in the last week (the latest anniversary of the start
 * up to today), still running: the nightly job settles these again for their portfolio lines —
 * a week, so a night the job missed is caught up; settling twice writes nothing.
 */
export async function anniversariesDue(db: DB, today = swissToday()): Promise<number[]> {
  const rows = await db
    .selectFrom('contracts')
    .select('id')
    .where('contract_type', '=', 'closure')
    .where('start_date', 'is not', null)
    .where('start_date', '<=', today)
    .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>', today)]))
    .where(
      sql<boolean>`${today}::date - (start_date + make_interval(years => extract(year from age(${today}::date, start_date))::int))::date between 0 and 6`,
    )
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function engineRoutes(app: FastifyInstance): Promise<void> {
  app.post<{ Body: TestBody }>(
    '/api/commission-rules/test',
    {
      config: { access: 'manage-commission-rules' },
      schema: {
        tags: ['commission-rules'],
        summary: 'Which rule applies to a contract or a case, with the amounts it gives',
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            contract_id: ID,
            signing_date: DATE,
            category: { type: 'string', enum: ['private', 'business'] },
            client_age: { type: 'integer', minimum: 0, maximum: 130 },
            birth_date: DATE,
            company_id: ID,
            product_id: ID,
            sub_product_id: ID,
            sub_product_variant_id: ID,
            premium: { type: 'number', minimum: 0, maximum: 10_000_000 },
            payment_cycle: {
              type: 'string',
              enum: ['monthly', 'quarterly', 'semi_annual', 'annual', 'single'],
            },
            annual_premium: { type: 'number', minimum: 0, maximum: 100_000_000 },
            production_sum: { type: 'number', minimum: 0, maximum: 1_000_000_000 },
          },
        },
      },
    },
    async (request) => {
      const body = request.body;
      const rules = await loadRules(app.db);
      if (body.contract_id) {
        // Only a contract the user may see (404 as for an id that does not exist).
        const visible = await app.db
          .selectFrom('contracts')
          .select('id')
          .where('id', '=', body.contract_id)
          .where(scopeExpression(scopeFor(app, 'contracts', request.principal)))
          .executeTakeFirst();
        const facts = visible ? await contractFacts(app.db, body.contract_id) : null;
        if (!facts) throw notFound('Contract');
        const at = caseOf(facts);
        const context = await contextFor(app.db, facts, { rules });
        const lines = targetLines(facts, context);
        return {
          data: {
            ...answerFor(rules, at, {
              annualPremium: facts.annualPremium,
              productionSum: facts.productionSum,
              productId: facts.productId,
              supplementaryMonthly: facts.supplementaryMonthly,
            }),
            lines: lines.map((line) => ({
              kind: line.kind,
              user_id: line.userId,
              sub_broker_id: line.subBrokerId,
              amount: line.amount,
              stars: line.stars,
              period: line.period,
              commission_type: line.commissionType,
              contract_year: line.contractYear,
              explain: line.explain,
            })),
          },
        };
      }
      const missing: FieldErrors = {};
      if (!body.signing_date) addError(missing, 'signing_date', issue('required'));
      if (!body.product_id) addError(missing, 'product_id', issue('required'));
      if (Object.keys(missing).length > 0) throw validationError(missing);
      const product = await app.db
        .selectFrom('products')
        .select(['id', 'group'])
        .where('id', '=', body.product_id!)
        .executeTakeFirst();
      if (!product)
        throw validationError({
          product_id: [
            issue('unknownReference', { resource: 'products', ids: String(body.product_id) }),
          ],
        });
      const figures = contractFigures({
        productGroup: product.group as never,
        paymentCycle: body.payment_cycle ?? 'monthly',
        insurance: { premium: body.premium ?? 0 },
      });
      const annualPremium = toCentimes(body.annual_premium ?? figures.annualPremium);
      const productionSum = toCentimes(
        body.production_sum ?? body.annual_premium ?? figures.productionSum,
      );
      const at: RuleCase = {
        signingDate: body.signing_date!,
        category: body.category ?? null,
        clientAge:
          body.client_age ?? (body.birth_date ? ageOn(body.birth_date, body.signing_date!) : null),
        companyId: body.company_id ?? null,
        productId: body.product_id!,
        subProductIds: body.sub_product_id ? [body.sub_product_id] : [],
        subProductVariantIds: body.sub_product_variant_id ? [body.sub_product_variant_id] : [],
      };
      return {
        data: {
          ...answerFor(rules, at, {
            annualPremium,
            productionSum,
            productId: body.product_id!,
            supplementaryMonthly: 0,
          }),
          lines: [],
        },
      };
    },
  );

  app.post<{ Body: { contract_ids?: number[] } }>(
    '/api/commissions/recompute',
    {
      config: { access: 'manage-commissions' },
      schema: {
        tags: ['commission-lines'],
        summary:
          'Settle closures again (all, or the ids given): changes become reversal + new lines',
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { contract_ids: { type: 'array', items: ID, maxItems: 10_000 } },
        },
      },
    },
    async (request) => {
      const ids = request.body?.contract_ids;
      if (ids) {
        const done = await writeTransaction(app.db, request, async (trx) => {
          const result = await settleContracts(trx, ids, {
            rules: await loadRules(trx),
            by: request.principal!.id,
            reason: 'ruleChanged',
          });
          return { contracts: ids.length, ...result };
        });
        return { data: done };
      }
      return { data: await recomputeAll(app.db, { by: request.principal!.id }) };
    },
  );
}

function answerFor(
  rules: Awaited<ReturnType<typeof loadRules>>,
  at: RuleCase | null,
  figures: {
    annualPremium: number;
    productionSum: number;
    productId: number;
    supplementaryMonthly: number;
  },
) {
  if (!at) return { rule: null, candidates: [], courtage: null, portfolio: null };
  const chosen = chooseRule(rules, at, 'acquisition');
  const portfolio = chooseRule(rules, at, 'portfolio');
  const courtage = chosen.rule ? courtageOf(chosen.rule, figures) : null;
  const cap = capOf({
    signingDate: at.signingDate,
    productId: figures.productId,
    annualPremium: figures.annualPremium,
    supplementaryMonthly: figures.supplementaryMonthly,
  });
  const ruleRef = (rule: { id: number; name: string; version: number } | null) =>
    rule ? { id: rule.id, name: rule.name, version: rule.version } : null;
  return {
    rule: ruleRef(chosen.rule),
    candidates: [...chosen.candidates, ...portfolio.candidates].map(({ rule, specificity }) => ({
      id: rule.id,
      name: rule.name,
      commission_type: rule.commissionType,
      specificity,
    })),
    courtage: courtage
      ? {
          amount: courtage.amount,
          explain: courtage.explain,
          cap_exceeded: cap !== null && courtage.amount > cap,
          cap_amount: cap,
        }
      : null,
    portfolio: portfolio.rule
      ? {
          rule: ruleRef(portfolio.rule),
          amount: courtageOf(portfolio.rule, figures).amount,
        }
      : null,
  };
}
