/**
 * The commission engine (issue 17; DOMAIN.md §2; docs/ARCHITECTURE.md "Commissions").
 *
 * `settleContract` brings a contract's lines in the ledger to what its current facts earn, in the
 * caller's transaction, after every contract write (create, change, delete) and from the batch
 * recompute and the daily job:
 *
 * 1. What it earns (`targetLines`): nothing unless it is a closure, not entered from before the CRM,
 *    signed, and not rejected. Otherwise the acquisition rule's courtage (src/schema/commissions.ts
 *    chooseRule/courtageOf; flagged above the legal cap), the people's lines (consultant stars ×
 *    CHF per star — a health closure counts the consultant's starHealth stars when set; the call
 *    centre's pass-on of the consultant's CHF when the call centre booked the appointment before
 *    signing; the team leader's stars; the consultant's share of broker-mandate courtage), the
 *    sub-broker's share of the courtage (its rule valid at signing), by the pay terms valid at
 *    signing (./terms.ts); a portfolio rule's courtage for each contract year begun; and for a
 *    contract cancelled within its rule's liability period, the clawback of the unearned part of
 *    every acquisition line.
 * 2. The difference (`settle`): every live line (not a reversal, not reversed) that the target
 *    does not hold unchanged is reversed — a reversal line of the opposite amount and stars; both
 *    become 'reversed' when the line was never in a payout, else the reversal is a new payable line
 *    in the user's next open month — and the target's lines not in the ledger are written. Nothing
 *    is ever edited: a change is reversal + new line.
 *
 * Periods: a line counts for its month (signing, contract year's start, cancellation), or the
 * user's first month after their latest payout when that month was paid out already. Status:
 * pending until the contract has started (and is not an application), then ready_present.
 * People's amounts are rounded to CHF 0.05, courtage and sub-broker lines to the centime.
 */
import { sql } from 'kysely';
import {
  ageOn,
  capOf,
  chooseRule,
  courtageOf,
  type ExplainStep,
  explainKey,
  type LineKind,
  monthOf,
  monthsBetween,
  nextMonth,
  type RuleCase,
  type RuleMatch,
  roundTo,
  toCentimes,
  toChf,
} from '../../src/schema/commissions.ts';
import { BROKER_MANDATE_PRODUCT_ID } from '../../src/schema/catalogue.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { jsonValue, listOf, objectOf } from '../contracts/rules.ts';
import { dateText as dateOf } from '../customers/rules.ts';
import { lockPayoutUsers } from './payout-lines.ts';
import { loadRules } from './rules.ts';
import { type Terms, termsHistory, termsOf } from './terms.ts';

const CALL_CENTRE_ROLE = 'BACKOFFICE-CALLCENTER';

/** A line the engine means to hold (before its period and status are settled). */
export interface TargetLine {
  kind: LineKind;
  userId: number | null;
  subBrokerId: number | null;
  amount: number;
  stars: number | null;
  ruleId: number | null;
  ruleVersion: number | null;
  commissionType: 'acquisition' | 'portfolio';
  contractYear: number | null;
  /** The month it counts for before payouts move it (YYYY-MM). */
  period: string;
  explain: ExplainStep[];
  capExceeded: boolean;
  capAmount: number | null;
  /** Clawback lines carry this mark in their identity (a clawback is not the line itself). */
  clawback: boolean;
}

interface ContractFacts {
  id: number;
  contractType: string;
  category: string | null;
  productId: number;
  productGroup: string | null;
  companyId: number | null;
  contractNumber: string | null;
  customerName: string | null;
  status: string | null;
  consultantId: number | null;
  brokerMandate: boolean;
  isPrecrm: boolean;
  signingDate: string | null;
  startDate: string | null;
  endDate: string | null;
  annualPremium: number;
  productionSum: number;
  subProductIds: number[];
  subProductVariantIds: number[];
  supplementaryMonthly: number;
  clientAge: number | null;
  customerId: number;
  subBrokerId: number | null;
  /** What the contract says its people earn (`commissions`, `total_commission`) as stored. */
  stored?: { commissions: unknown; total: number | null };
}

const dateText = (value: unknown): string | null => dateOf(value) ?? null;

/** The facts of contracts the engine needs (their customer's and insured person's included). */
export async function contractsFacts(db: DB, ids: number[]): Promise<Map<number, ContractFacts>> {
  const out = new Map<number, ContractFacts>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('contracts as c')
    .innerJoin('customers as cu', 'cu.id', 'c.customer_id')
    .leftJoin('household_members as hm', 'hm.id', 'c.household_member_id')
    .select([
      'c.id',
      'c.contract_type',
      'c.category',
      'c.product_id',
      'c.product_group',
      'c.company_id',
      'c.contract_number',
      'c.customer_name',
      'c.status',
      'c.consultant_id',
      'c.broker_mandate',
      'c.is_precrm_closure',
      'c.signing_date',
      'c.start_date',
      'c.end_date',
      'c.annual_premium',
      'c.production_sum',
      'c.insurance',
      'c.supplementary_insurances',
      'c.customer_id',
      'cu.sub_broker_id',
      'cu.date_of_birth as customer_birth',
      'hm.date_of_birth as member_birth',
      'c.commissions',
      'c.total_commission',
    ])
    .where('c.id', 'in', ids)
    .execute();
  for (const row of rows) {
    const facts = factsOf(row as unknown as ResourceRow);
    facts.stored = { commissions: row.commissions, total: row.total_commission };
    out.set(facts.id, facts);
  }
  return out;
}

/** The facts of one contract (null: no such contract). */
export async function contractFacts(db: DB, contractId: number): Promise<ContractFacts | null> {
  return (await contractsFacts(db, [contractId])).get(contractId) ?? null;
}

/** Facts from a joined row (./engine.ts contractFacts, the batch recompute). */
export function factsOf(row: ResourceRow): ContractFacts {
  const insurance = objectOf(row.insurance);
  const supplementary = listOf(row.supplementary_insurances);
  const signingDate = dateText(row.signing_date);
  const birth = dateText(row.member_birth) ?? dateText(row.customer_birth);
  const subProductIds = [
    ...(insurance.sub_product_id ? [Number(insurance.sub_product_id)] : []),
    ...supplementary.flatMap((line) => (line.sub_product_id ? [Number(line.sub_product_id)] : [])),
  ];
  const subProductVariantIds = [
    ...(insurance.sub_product_variant_id ? [Number(insurance.sub_product_variant_id)] : []),
    ...supplementary.flatMap((line) =>
      line.sub_product_variant_id ? [Number(line.sub_product_variant_id)] : [],
    ),
  ];
  return {
    id: Number(row.id),
    contractType: String(row.contract_type ?? 'closure'),
    category: (row.category as string | null) ?? null,
    productId: Number(row.product_id),
    productGroup: (row.product_group as string | null) ?? null,
    companyId:
      row.company_id === null || row.company_id === undefined ? null : Number(row.company_id),
    contractNumber: (row.contract_number as string | null) ?? null,
    customerName: (row.customer_name as string | null) ?? null,
    status: (row.status as string | null) ?? null,
    consultantId:
      row.consultant_id === null || row.consultant_id === undefined
        ? null
        : Number(row.consultant_id),
    brokerMandate: row.broker_mandate === true,
    isPrecrm: row.is_precrm_closure === true,
    signingDate,
    startDate: dateText(row.start_date),
    endDate: dateText(row.end_date),
    annualPremium: toCentimes(row.annual_premium as number | null),
    productionSum: toCentimes(row.production_sum as number | null),
    subProductIds,
    subProductVariantIds,
    supplementaryMonthly: supplementary.reduce(
      (sum, line) => sum + toCentimes(line.premium_month as number | null),
      0,
    ),
    clientAge: birth && signingDate ? ageOn(birth, signingDate) : null,
    customerId: Number(row.customer_id),
    subBrokerId:
      row.sub_broker_id === null || row.sub_broker_id === undefined
        ? null
        : Number(row.sub_broker_id),
  };
}

export function caseOf(facts: ContractFacts): RuleCase | null {
  if (!facts.signingDate) return null;
  return {
    signingDate: facts.signingDate,
    category: facts.category,
    clientAge: facts.clientAge,
    companyId: facts.companyId,
    productId: facts.productId,
    subProductIds: facts.subProductIds,
    subProductVariantIds: facts.subProductVariantIds,
  };
}

/** What the engine needs besides the contract: rules, people, the booking, sub-broker rules. */
export interface Context {
  rules: RuleMatch[];
  today: string;
  /** The consultant's role and team leader, by id. */
  users: Map<number, { role: string; leader: number | null }>;
  terms: Map<number, Terms>;
  /** The call-centre user who booked the appointment the closure came from, if any. */
  bookedBy: number | null;
  subBrokerRule: { percentagePayout: number; shareOfMandateBusiness: number | null } | null;
}

const stepOf = (step: string, params?: ExplainStep['params']): ExplainStep => ({
  key: explainKey(step),
  ...(params ? { params } : {}),
});

function ruleStep(rule: RuleMatch): ExplainStep {
  return stepOf('rule', { rule: rule.name, version: rule.version });
}

/** People's amounts: CHF 0.05 (DOMAIN.md §2), with the rounding said when it changed the sum. */
function people(
  amount: number,
  explain: ExplainStep[],
): { amount: number; explain: ExplainStep[] } {
  const rounded = roundTo(amount, 5);
  return {
    amount: rounded,
    explain:
      rounded === roundTo(amount)
        ? explain
        : [...explain, stepOf('rounded', { amount: toChf(rounded) })],
  };
}

/** What a contract's facts earn (see the head of this file). */
export function targetLines(facts: ContractFacts, context: Context): TargetLine[] {
  const at = caseOf(facts);
  if (!at || facts.contractType !== 'closure' || facts.isPrecrm || facts.status === 'rejected')
    return [];
  const lines: TargetLine[] = [];
  const base = {
    subBrokerId: null,
    stars: null,
    contractYear: null,
    capExceeded: false,
    capAmount: null,
    clawback: false,
  };
  const signingMonth = monthOf(at.signingDate);
  const health = facts.productGroup === 'health';
  const mandate = facts.brokerMandate || facts.productId === BROKER_MANDATE_PRODUCT_ID;

  // --- Acquisition: courtage and the people's lines.
  const { rule } = chooseRule(context.rules, at, 'acquisition');
  const acquisition: TargetLine[] = [];
  if (rule) {
    const courtage = courtageOf(rule, {
      annualPremium: facts.annualPremium,
      productionSum: facts.productionSum,
    });
    const cap = capOf({
      signingDate: at.signingDate,
      productId: facts.productId,
      annualPremium: facts.annualPremium,
      supplementaryMonthly: facts.supplementaryMonthly,
    });
    const over = cap !== null && courtage.amount > cap;
    acquisition.push({
      ...base,
      kind: 'courtage',
      userId: null,
      amount: courtage.amount,
      ruleId: rule.id,
      ruleVersion: rule.version,
      commissionType: 'acquisition',
      period: signingMonth,
      explain: [
        ruleStep(rule),
        ...courtage.explain,
        ...(over ? [stepOf('capExceeded', { cap: toChf(cap) })] : []),
      ],
      capExceeded: over,
      capAmount: cap,
    });

    const consultant = facts.consultantId;
    if (consultant) {
      const terms = termsOf(context.terms, consultant);
      const healthStars = health && terms.starHealth !== null;
      const stars = healthStars ? (terms.starHealth ?? 0) : rule.stars;
      const gross = roundTo(stars * terms.chfPerStar * 100);
      const salaried = terms.paymentType === 'salary';
      const earned = salaried ? 0 : gross;
      const explain: ExplainStep[] = [
        ruleStep(rule),
        stepOf(healthStars ? 'starsHealth' : 'stars', {
          stars,
          rate: terms.chfPerStar,
          amount: toChf(gross),
        }),
        ...(salaried ? [stepOf('salaried')] : []),
      ];
      // The call centre's pass-on, when it booked the appointment.
      const booker = context.bookedBy;
      let passOn = 0;
      if (booker && booker !== consultant && earned > 0 && terms.closuresPassOnRate > 0) {
        passOn = roundTo((earned * terms.closuresPassOnRate) / 100, 5);
        acquisition.push({
          ...base,
          kind: 'call_centre',
          userId: booker,
          amount: passOn,
          ruleId: rule.id,
          ruleVersion: rule.version,
          commissionType: 'acquisition',
          period: signingMonth,
          explain: [
            ruleStep(rule),
            stepOf('passOn', {
              percent: terms.closuresPassOnRate,
              basis: toChf(earned),
              amount: toChf(passOn),
            }),
          ],
        });
        explain.push(
          stepOf('passOnDeducted', { percent: terms.closuresPassOnRate, amount: toChf(passOn) }),
        );
      }
      const net = people(earned - passOn, explain);
      acquisition.push({
        ...base,
        kind: 'consultant',
        userId: consultant,
        amount: net.amount,
        stars,
        ruleId: rule.id,
        ruleVersion: rule.version,
        commissionType: 'acquisition',
        period: signingMonth,
        explain: net.explain,
      });

      // The team leader's stars.
      const leader = context.users.get(consultant)?.leader ?? null;
      if (leader && leader !== consultant && rule.teamLeadStars > 0) {
        const leaderTerms = termsOf(context.terms, leader);
        const amount =
          leaderTerms.paymentType === 'salary'
            ? 0
            : rule.teamLeadStars * leaderTerms.chfPerStar * 100;
        const line = people(amount, [
          ruleStep(rule),
          stepOf('teamLead', {
            stars: rule.teamLeadStars,
            rate: leaderTerms.chfPerStar,
            amount: toChf(roundTo(amount)),
          }),
        ]);
        acquisition.push({
          ...base,
          kind: 'team_lead',
          userId: leader,
          amount: line.amount,
          stars: rule.teamLeadStars,
          ruleId: rule.id,
          ruleVersion: rule.version,
          commissionType: 'acquisition',
          period: signingMonth,
          explain: line.explain,
        });
      }

      // The consultant's share of broker-mandate business.
      if (mandate && terms.shareOfMandateBusiness > 0 && courtage.amount > 0) {
        const amount = (courtage.amount * terms.shareOfMandateBusiness) / 100;
        const line = people(amount, [
          ruleStep(rule),
          stepOf('mandate', {
            percent: terms.shareOfMandateBusiness,
            basis: toChf(courtage.amount),
            amount: toChf(roundTo(amount)),
          }),
        ]);
        acquisition.push({
          ...base,
          kind: 'mandate',
          userId: consultant,
          amount: line.amount,
          ruleId: rule.id,
          ruleVersion: rule.version,
          commissionType: 'acquisition',
          period: signingMonth,
          explain: line.explain,
        });
      }
    }

    // The sub-broker's share of the courtage.
    const subRule = context.subBrokerRule;
    if (facts.subBrokerId && subRule && courtage.amount > 0) {
      const percent =
        mandate && subRule.shareOfMandateBusiness !== null
          ? subRule.shareOfMandateBusiness
          : subRule.percentagePayout;
      const amount = roundTo((courtage.amount * percent) / 100);
      if (amount !== 0)
        acquisition.push({
          ...base,
          kind: 'sub_broker',
          userId: null,
          subBrokerId: facts.subBrokerId,
          amount,
          ruleId: rule.id,
          ruleVersion: rule.version,
          commissionType: 'acquisition',
          period: signingMonth,
          explain: [
            ruleStep(rule),
            stepOf(mandate ? 'subBrokerMandate' : 'subBroker', {
              percent,
              basis: toChf(courtage.amount),
              amount: toChf(amount),
            }),
          ],
        });
    }

    // The clawback of a cancellation within the liability period (Stornohaftung).
    if (
      facts.status === 'cancelled' &&
      rule.liabilityMonths > 0 &&
      facts.startDate &&
      facts.endDate
    ) {
      const elapsed = monthsBetween(facts.startDate, facts.endDate);
      if (elapsed < rule.liabilityMonths) {
        const unearned = rule.liabilityMonths - elapsed;
        for (const line of [...acquisition]) {
          if (line.amount === 0 && !line.stars) continue;
          const step = line.kind === 'courtage' || line.kind === 'sub_broker' ? 1 : 5;
          const back = roundTo((line.amount * unearned) / rule.liabilityMonths, step);
          const stars =
            line.stars === null
              ? null
              : Math.round(((line.stars * unearned) / rule.liabilityMonths) * 100) / 100;
          acquisition.push({
            ...line,
            amount: -back,
            stars: stars === null ? null : -stars,
            period: monthOf(facts.endDate),
            capExceeded: false,
            capAmount: null,
            clawback: true,
            explain: [
              ruleStep(rule),
              stepOf('clawback', {
                elapsed,
                months: rule.liabilityMonths,
                basis: toChf(line.amount),
                amount: toChf(back),
              }),
            ],
          });
        }
      }
    }
  }
  lines.push(...acquisition);

  // --- Portfolio: the courtage of each contract year begun (while the contract runs).
  const portfolio = chooseRule(context.rules, at, 'portfolio').rule;
  if (portfolio && facts.startDate && facts.status !== 'application') {
    const start = facts.startDate;
    for (let year = 1; year <= 100; year++) {
      const begins = addYears(start, year - 1);
      if (begins > context.today) break;
      if (facts.endDate && begins >= facts.endDate) break;
      const courtage = courtageOf(portfolio, {
        annualPremium: facts.annualPremium,
        productionSum: facts.productionSum,
      });
      lines.push({
        ...base,
        kind: 'courtage',
        userId: null,
        amount: courtage.amount,
        ruleId: portfolio.id,
        ruleVersion: portfolio.version,
        commissionType: 'portfolio',
        contractYear: year,
        period: monthOf(begins),
        explain: [ruleStep(portfolio), stepOf('portfolioYear', { year }), ...courtage.explain],
      });
    }
  }
  return lines;
}

function addYears(date: string, years: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const day = m === 2 && d === 29 ? 28 : d;
  return `${y + years}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The identity of a line: what must match for a stored line to stand for a target one. */
function identity(line: {
  kind: string;
  userId: number | null;
  subBrokerId: number | null;
  amount: number;
  stars: number | null;
  ruleId: number | null;
  ruleVersion: number | null;
  commissionType: string | null;
  contractYear: number | null;
  clawback: boolean;
}): string {
  return JSON.stringify([
    line.kind,
    line.userId,
    line.subBrokerId,
    line.amount,
    line.stars === null ? null : Math.round(line.stars * 100),
    line.ruleId,
    line.ruleVersion,
    line.commissionType,
    line.contractYear,
    line.clawback,
  ]);
}

/** The context a contract is settled in (rules may be passed in by a batch). */
export async function contextFor(
  db: DB,
  facts: ContractFacts,
  options: { rules?: RuleMatch[]; today?: string } = {},
): Promise<Context> {
  return (await contextsFor(db, [facts], options)).get(facts.id)!;
}

const ASCENDING = (a: number, b: number) => a - b;

/**
 * The contexts of several contracts, read with a few statements for all of them (the batch
 * recompute settles hundreds at once): the consultants, each closure's booking, the pay terms
 * valid at each signing, the sub-brokers' rules.
 */
export async function contextsFor(
  db: DB,
  all: ContractFacts[],
  options: { rules?: RuleMatch[]; today?: string } = {},
): Promise<Map<number, Context>> {
  const today = options.today ?? swissToday();
  const rules = options.rules ?? (await loadRules(db));
  const signingOf = (facts: ContractFacts) => facts.signingDate ?? today;
  const out = new Map<number, Context>();
  if (all.length === 0) return out;

  // The consultants (role, team leader).
  const consultantIds = [
    ...new Set(all.flatMap((facts) => (facts.consultantId ? [facts.consultantId] : []))),
  ];
  const consultants = new Map<number, { role: string; leader: number | null }>();
  if (consultantIds.length > 0)
    for (const user of await db
      .selectFrom('users')
      .select(['id', 'role', 'leader'])
      .where('id', 'in', consultantIds)
      .execute())
      consultants.set(user.id, { role: user.role, leader: user.leader });

  // The appointment each closure came from: the customer's latest one requested by the call
  // centre up to the signing day, booked by a call-centre user.
  const booked = new Map<number, number>();
  const withConsultant = all.filter((facts) => facts.consultantId);
  if (withConsultant.length > 0) {
    const rows = await sql<{ id: number; booked_by: number }>`
      select k.id, b.booked_by
      from unnest(${withConsultant.map((facts) => facts.id)}::int[],
                  ${withConsultant.map((facts) => facts.customerId)}::int[],
                  ${withConsultant.map(signingOf)}::date[]) as k(id, client_id, signing)
      cross join lateral (
        select a.booked_by from appointments a
        join users u on u.id = a.booked_by
        where a.client_id = k.client_id and a.who_requested = 'call_centre'
          and u.role = ${CALL_CENTRE_ROLE} and a.date_start < (k.signing + 1)
        order by a.date_start desc
        limit 1
      ) b`.execute(db);
    for (const row of rows.rows) booked.set(Number(row.id), Number(row.booked_by));
  }

  // The pay terms of the consultants and their team leaders, valid at each signing.
  const userIdsOf = (facts: ContractFacts): number[] => {
    if (!facts.consultantId) return [];
    const consultant = consultants.get(facts.consultantId);
    if (!consultant) return [];
    return consultant.leader ? [facts.consultantId, consultant.leader] : [facts.consultantId];
  };
  const payable = [...new Set(all.flatMap(userIdsOf))];
  const history = await termsHistory(db, payable);

  // The sub-brokers' rules (the one valid at signing is chosen per contract).
  const brokerIds = [
    ...new Set(all.flatMap((facts) => (facts.subBrokerId ? [facts.subBrokerId] : []))),
  ];
  const brokerRules =
    brokerIds.length > 0
      ? await db
          .selectFrom('sub_broker_rules')
          .select([
            'organization_id',
            'percentage_payout',
            'share_of_mandate_business',
            'insurance_type',
            'company_ids',
            'date_from',
            'date_to',
          ])
          .where('organization_id', 'in', brokerIds)
          .where('is_active', 'is not', false)
          .orderBy('date_from', 'desc')
          .orderBy('id')
          .execute()
      : [];

  for (const facts of all) {
    const signing = signingOf(facts);
    const users = new Map<number, { role: string; leader: number | null }>();
    const consultant = facts.consultantId ? consultants.get(facts.consultantId) : undefined;
    if (facts.consultantId && consultant) users.set(facts.consultantId, consultant);
    let subBrokerRule: Context['subBrokerRule'] = null;
    if (facts.subBrokerId) {
      const fits = brokerRules.find((row) => {
        if (row.organization_id !== facts.subBrokerId) return false;
        const from = dateText(row.date_from);
        const to = dateText(row.date_to);
        if (!from || from > signing || (to && to < signing)) return false;
        if (row.insurance_type && row.insurance_type !== facts.productGroup) return false;
        const companies = (jsonValue(row.company_ids) as number[] | null) ?? [];
        return (
          companies.length === 0 ||
          (facts.companyId !== null && companies.includes(facts.companyId))
        );
      });
      if (fits)
        subBrokerRule = {
          percentagePayout: fits.percentage_payout,
          shareOfMandateBusiness: fits.share_of_mandate_business,
        };
    }
    out.set(facts.id, {
      rules,
      today,
      users,
      terms: history.on(userIdsOf(facts), signing),
      bookedBy: facts.consultantId ? (booked.get(facts.id) ?? null) : null,
      subBrokerRule,
    });
  }
  return out;
}

interface StoredLine {
  id: number;
  contract_id: number | null;
  kind: string;
  user_id: number | null;
  sub_broker_id: number | null;
  amount: number;
  stars: number | null;
  rule_id: number | null;
  rule_version: number | null;
  commission_type: string | null;
  contract_year: number | null;
  period: string;
  status: string;
  explain: unknown;
  contract_number: string | null;
  customer_name: string | null;
  product_id: number | null;
  company_id: number | null;
  product_group: string | null;
}

const isClawback = (line: Pick<StoredLine, 'explain'>) =>
  listOf(line.explain).some((step) => step.key === explainKey('clawback'));

/**
 * The months after which users' new lines must count (their latest payout's month), taking each
 * user's payout lock first (held to the commit; in id order, so two batches never wait on each
 * other crosswise): a payout being made for a month either sees the line or is seen by it.
 */
async function paidUntilOf(db: DB, userIds: number[]): Promise<Map<number, string>> {
  const users = [...new Set(userIds)].sort(ASCENDING);
  const out = new Map<number, string>();
  if (users.length === 0) return out;
  await lockPayoutUsers(db, users);
  const rows = await db
    .selectFrom('payouts')
    .select(['user_id'])
    .select((eb) => eb.fn.max('period').as('period'))
    .where('user_id', 'in', users)
    .groupBy('user_id')
    .execute();
  for (const row of rows) if (row.period) out.set(row.user_id, String(row.period));
  return out;
}

/** A line's month: its own, or the month after the user's latest payout when that one was paid. */
const periodAfter = (paidUntil: Map<number, string>, userId: number | null, period: string) => {
  const until = userId === null ? undefined : paidUntil.get(userId);
  return until && until >= period ? nextMonth(until) : period;
};

/**
 * The month a user's new line counts for: its own, or after the user's latest payout's month.
 * Under the user's payout lock (held to the commit): a payout being made for that month either
 * sees the line or is seen by it.
 */
export async function openPeriod(db: DB, userId: number | null, period: string): Promise<string> {
  if (userId === null) return period;
  return periodAfter(await paidUntilOf(db, [userId]), userId, period);
}

export interface SettleOptions {
  /** Who set it off (a user's write), for createdBy. */
  by?: number | null;
  today?: string;
  rules?: RuleMatch[];
  /** The reason written on reversals. */
  reason?: string;
}

/** What a settle did: lines reversed and written. */
export interface Settled {
  reversed: number;
  written: number;
}

/** Rows a multi-row insert holds (about 20 parameters a row, well below PostgreSQL's 65,535). */
const INSERT_ROWS = 1000;

const REASONS = ['contractChanged', 'contractDeleted', 'ruleChanged'];

/**
 * Brings a contract's lines in the ledger to what it earns now (see the head of this file).
 * A contract that is gone: everything live is reversed.
 */
export async function settleContract(
  db: DB,
  contractId: number,
  options: SettleOptions = {},
): Promise<Settled> {
  return settleContracts(db, [contractId], options);
}

/**
 * `settleContract` for several contracts at once, in the caller's transaction: a few statements
 * for all of them (their facts, contexts and stored lines read together, the reversals and the new
 * lines written by multi-row inserts) — the batch recompute settles hundreds a statement.
 */
export async function settleContracts(
  db: DB,
  contractIds: number[],
  options: SettleOptions = {},
): Promise<Settled> {
  const ids = [...new Set(contractIds)].sort(ASCENDING);
  if (ids.length === 0) return { reversed: 0, written: 0 };
  // One settle of a contract at a time (two writes of one contract, the job and a user): the
  // contracts' rows locked, in id order — a user's write holds its contract's row already, and
  // the engine writes the rows' commissions below. A contract deleted meanwhile has no row: its
  // delete settled it, in its own transaction.
  await db
    .selectFrom('contracts')
    .select('id')
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
  const today = options.today ?? swissToday();
  const facts = await contractsFacts(db, ids);
  const contexts = await contextsFor(db, [...facts.values()], { ...options, today });

  const storedRows = (await db
    .selectFrom('commission_lines as l')
    .select([
      'l.id',
      'l.contract_id',
      'l.kind',
      'l.user_id',
      'l.sub_broker_id',
      'l.amount',
      'l.stars',
      'l.rule_id',
      'l.rule_version',
      'l.commission_type',
      'l.contract_year',
      'l.period',
      'l.status',
      'l.explain',
      'l.contract_number',
      'l.customer_name',
      'l.product_id',
      'l.company_id',
      'l.product_group',
    ])
    .where('l.contract_id', 'in', ids)
    .where('l.reverses_id', 'is', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('commission_lines as r')
            .select('r.id')
            .whereRef('r.reverses_id', '=', 'l.id'),
        ),
      ),
    )
    .orderBy('l.id')
    .execute()) as StoredLine[];
  const storedOf = new Map<number, StoredLine[]>();
  for (const line of storedRows) {
    const id = Number(line.contract_id);
    storedOf.set(id, [...(storedOf.get(id) ?? []), line]);
  }

  // Per contract: pair stored lines with target ones of the same identity; the rest is reversed
  // or written.
  const reversals: Array<{
    line: StoredLine;
    contractId: number;
    snapshot: Record<string, unknown> | null;
    reason: string;
  }> = [];
  const writes: Array<{
    line: TargetLine;
    contractId: number;
    snapshot: Record<string, unknown>;
    status: string;
  }> = [];
  const summaries: Array<{ id: number; summary: PeopleSummary }> = [];
  for (const contractId of ids) {
    const fact = facts.get(contractId) ?? null;
    const context = fact ? contexts.get(contractId) : undefined;
    const target = fact && context ? targetLines(fact, context) : [];
    if (fact) {
      const summary = peopleSummary(target);
      if (!sameSummary(summary, fact.stored)) summaries.push({ id: contractId, summary });
    }
    const started = (fact?.startDate ?? '9999-12-31') <= today && fact?.status !== 'application';
    const wanted = new Map<string, TargetLine[]>();
    for (const line of target) {
      const key = identity(line);
      wanted.set(key, [...(wanted.get(key) ?? []), line]);
    }
    const snapshot = fact
      ? {
          contract_number: fact.contractNumber,
          customer_name: fact.customerName,
          product_id: fact.productId,
          company_id: fact.companyId,
          product_group: fact.productGroup,
        }
      : null;
    const reason = options.reason ?? (fact ? 'contractChanged' : 'contractDeleted');
    for (const line of storedOf.get(contractId) ?? []) {
      const key = identity({
        kind: line.kind,
        userId: line.user_id,
        subBrokerId: line.sub_broker_id,
        amount: line.amount,
        stars: line.stars,
        ruleId: line.rule_id,
        ruleVersion: line.rule_version,
        commissionType: line.commission_type,
        contractYear: line.contract_year,
        clawback: isClawback(line),
      });
      const same = wanted.get(key);
      if (same && same.length > 0) same.shift();
      else reversals.push({ line, contractId, snapshot, reason });
    }
    if (snapshot)
      for (const line of [...wanted.values()].flat())
        writes.push({
          line,
          contractId,
          snapshot,
          status: started ? 'ready_present' : 'pending',
        });
  }
  await storeSummaries(db, summaries);
  if (reversals.length === 0 && writes.length === 0) return { reversed: 0, written: 0 };

  // The months: a line paid out already is reversed, and a new line counts, in the user's month
  // after their latest payout when its own month was paid.
  const paidUntil = await paidUntilOf(db, [
    ...reversals.flatMap(({ line }) =>
      line.user_id !== null && !unpaid(line.status) ? [line.user_id] : [],
    ),
    ...writes.flatMap(({ line }) => (line.userId !== null ? [line.userId] : [])),
  ]);
  const by = options.by ?? null;
  await insertLines(
    db,
    reversals.map(({ line, contractId, snapshot, reason }) =>
      reversalValues(line, {
        period: unpaid(line.status)
          ? line.period
          : periodAfter(paidUntil, line.user_id, line.period),
        reason,
        by,
        contractId,
        snapshot,
      }),
    ),
  );
  const unpaidIds = reversals.flatMap(({ line }) => (unpaid(line.status) ? [line.id] : []));
  for (let at = 0; at < unpaidIds.length; at += INSERT_ROWS)
    await db
      .updateTable('commission_lines')
      .set({ status: 'reversed', updated_at: sql`now()`, version: sql`version + 1` })
      .where('id', 'in', unpaidIds.slice(at, at + INSERT_ROWS))
      .execute();
  await insertLines(
    db,
    writes.map(({ line, contractId, snapshot, status }) => {
      const period = periodAfter(paidUntil, line.userId, line.period);
      return {
        ...snapshot,
        contract_id: contractId,
        kind: line.kind,
        user_id: line.userId,
        sub_broker_id: line.subBrokerId,
        amount: line.amount,
        stars: line.stars,
        rule_id: line.ruleId,
        rule_version: line.ruleVersion,
        commission_type: line.commissionType,
        contract_year: line.contractYear,
        period,
        status,
        explain: JSON.stringify(
          period !== line.period
            ? [...line.explain, stepOf('nextPeriod', { from: line.period, until: period })]
            : line.explain,
        ),
        cap_exceeded: line.capExceeded,
        cap_amount: line.capAmount,
        created_by: by,
      };
    }),
  );
  return { reversed: reversals.length, written: writes.length };
}

/** The contract's own record of what its people earn (`commissions`, `total_commission`). */
interface PeopleSummary {
  commissions: Array<{ type: string; user_id?: number; sub_broker_id?: number; comission: number }>;
  total: number;
}

/** The people's kinds, in the order a contract lists them. */
const PEOPLE_KINDS: string[] = ['consultant', 'team_lead', 'call_centre', 'mandate', 'sub_broker'];

/**
 * What a contract's people earn from it once settled (its live lines are its target lines): the
 * people's lines summed by earner and kind (clawbacks net), none that sum to nothing, in CHF.
 */
export function peopleSummary(lines: TargetLine[]): PeopleSummary {
  const sums = new Map<
    string,
    { kind: string; userId: number | null; subBrokerId: number | null; amount: number }
  >();
  for (const line of lines) {
    if (!PEOPLE_KINDS.includes(line.kind)) continue;
    const key = `${line.kind}:${line.userId ?? ''}:${line.subBrokerId ?? ''}`;
    const sum = sums.get(key) ?? {
      kind: line.kind,
      userId: line.userId,
      subBrokerId: line.subBrokerId,
      amount: 0,
    };
    sum.amount += line.amount;
    sums.set(key, sum);
  }
  const kept = [...sums.values()]
    .filter((sum) => sum.amount !== 0)
    .sort(
      (a, b) =>
        PEOPLE_KINDS.indexOf(a.kind) - PEOPLE_KINDS.indexOf(b.kind) ||
        (a.userId ?? 0) - (b.userId ?? 0) ||
        (a.subBrokerId ?? 0) - (b.subBrokerId ?? 0),
    );
  return {
    commissions: kept.map((sum) => ({
      type: sum.kind,
      ...(sum.userId !== null ? { user_id: sum.userId } : {}),
      ...(sum.subBrokerId !== null ? { sub_broker_id: sum.subBrokerId } : {}),
      comission: toChf(sum.amount),
    })),
    total: toChf(kept.reduce((total, sum) => total + sum.amount, 0)),
  };
}

/** Whether the contract already says what `summary` says (key order of the stored JSON aside). */
function sameSummary(summary: PeopleSummary, stored: ContractFacts['stored']): boolean {
  if (!stored) return false;
  const tuples = (lines: unknown) =>
    JSON.stringify(
      listOf(lines).map((line) => [
        line.type ?? null,
        line.user_id ?? null,
        line.sub_broker_id ?? null,
        Number(line.comission ?? 0),
      ]),
    );
  return (
    tuples(summary.commissions) === tuples(stored.commissions) &&
    Number(stored.total ?? 0) === summary.total
  );
}

/** Writes the contracts' `commissions` and `total_commission` that changed, one statement. */
async function storeSummaries(
  db: DB,
  summaries: Array<{ id: number; summary: PeopleSummary }>,
): Promise<void> {
  for (let at = 0; at < summaries.length; at += INSERT_ROWS) {
    const slice = summaries.slice(at, at + INSERT_ROWS);
    await sql`update contracts as c
      set commissions = v.commissions::jsonb, total_commission = v.total
      from unnest(${slice.map((one) => one.id)}::int[],
                  ${slice.map((one) => JSON.stringify(one.summary.commissions))}::text[],
                  ${slice.map((one) => one.summary.total)}::float8[]) as v(id, commissions, total)
      where c.id = v.id`.execute(db);
  }
}

const unpaid = (status: string) => status === 'pending' || status === 'ready_present';

/** Multi-row inserts of ledger lines, in order (ids follow the order given). */
async function insertLines(db: DB, rows: Array<Record<string, unknown>>): Promise<void> {
  for (let at = 0; at < rows.length; at += INSERT_ROWS)
    await db
      .insertInto('commission_lines')
      .values(rows.slice(at, at + INSERT_ROWS) as never)
      .execute();
}

type ReversedLine = Pick<
  StoredLine,
  | 'id'
  | 'kind'
  | 'user_id'
  | 'sub_broker_id'
  | 'amount'
  | 'stars'
  | 'rule_id'
  | 'rule_version'
  | 'commission_type'
  | 'contract_year'
  | 'period'
  | 'status'
>;

/** The row of a line's reversal (its contract's snapshot: the original's, or the one given). */
function reversalValues(
  line: ReversedLine &
    Partial<
      Pick<
        StoredLine,
        | 'contract_id'
        | 'contract_number'
        | 'customer_name'
        | 'product_id'
        | 'company_id'
        | 'product_group'
      >
    >,
  options: {
    period: string;
    reason: string;
    by: number | null;
    contractId?: number | null;
    snapshot?: Record<string, unknown> | null;
  },
): Record<string, unknown> {
  const reasonText = options.reason.startsWith('app.')
    ? options.reason
    : REASONS.includes(options.reason)
      ? explainKey(`reason.${options.reason}`)
      : null;
  return {
    contract_id: line.contract_id ?? null,
    contract_number: line.contract_number ?? null,
    customer_name: line.customer_name ?? null,
    product_id: line.product_id ?? null,
    company_id: line.company_id ?? null,
    product_group: line.product_group ?? null,
    ...(options.snapshot ?? {}),
    ...(options.contractId === undefined ? {} : { contract_id: options.contractId }),
    kind: line.kind,
    user_id: line.user_id,
    sub_broker_id: line.sub_broker_id,
    amount: -line.amount,
    stars: line.stars === null ? null : -line.stars,
    rule_id: line.rule_id,
    rule_version: line.rule_version,
    commission_type: line.commission_type,
    contract_year: line.contract_year,
    period: options.period,
    status: unpaid(line.status) ? 'reversed' : 'ready_present',
    reverses_id: line.id,
    reason: reasonText ? null : options.reason,
    explain: JSON.stringify([
      stepOf('reversal', { name: `#${line.id}`, amount: toChf(-line.amount) }),
      ...(reasonText ? [{ key: reasonText }] : []),
    ]),
    created_by: options.by,
  };
}

/**
 * Writes the reversal of a live line: the opposite amount and stars, `reverses_id` = the line.
 * A line never in a payout (pending, ready_present) is reversed in place: both 'reversed', out of
 * every payout. A line in a payout or paid stays as it is and its reversal is a payable line in
 * the user's next open month.
 */
export async function reverseLine(
  db: DB,
  line: ReversedLine,
  options: {
    reason: string;
    by: number | null;
    contractId?: number | null;
    snapshot?: Record<string, unknown> | null;
  },
): Promise<number> {
  const period = unpaid(line.status)
    ? line.period
    : await openPeriod(db, line.user_id, line.period);
  const original = await db
    .selectFrom('commission_lines')
    .select([
      'contract_id',
      'contract_number',
      'customer_name',
      'product_id',
      'company_id',
      'product_group',
    ])
    .where('id', '=', line.id)
    .executeTakeFirstOrThrow();
  const inserted = await db
    .insertInto('commission_lines')
    .values(reversalValues({ ...line, ...original }, { ...options, period }) as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  if (unpaid(line.status))
    await db
      .updateTable('commission_lines')
      .set({ status: 'reversed', updated_at: sql`now()`, version: sql`version + 1` })
      .where('id', '=', line.id)
      .execute();
  return inserted.id;
}

/** Contract delete: its lines are reversed before the reference to it is cleared. */
export async function settleDeletedContract(
  db: DB,
  contractId: number,
  by: number | null,
): Promise<void> {
  await settleContract(db, contractId, { by, reason: 'contractDeleted' });
  await db
    .updateTable('commission_lines')
    .set({ contract_id: null })
    .where('contract_id', '=', contractId)
    .execute();
}

/** The daily release: pending lines of contracts that have started become payable. */
export async function releaseStarted(db: DB, today = swissToday()): Promise<number> {
  const result = await db
    .updateTable('commission_lines')
    .set({ status: 'ready_present', updated_at: sql`now()`, version: sql`version + 1` })
    .where('status', '=', 'pending')
    .where('contract_id', 'in', (eb) =>
      eb
        .selectFrom('contracts')
        .select('id')
        .where('start_date', '<=', today)
        .where((inner) =>
          inner.or([inner('status', 'is', null), inner('status', '!=', 'application')]),
        ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}
