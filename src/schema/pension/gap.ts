/**
 * The Global check (issue 19): for one customer, the five scenarios — retirement, disability after
 * a disease or an accident, death after a disease or an accident — each with the pensions that
 * apply by source (AHV/IV, BVG, UVG, KTG or the UVG daily allowance for the waiting period, and
 * the customer's own cover), the need (a share of today's gross income), the cover and the gap,
 * CHF a month. Pure: the figures come from ./figures.ts, the rules from ./rules.ts; every amount is
 * computed unrounded and rounded to francs only in the answer.
 */
import { figuresFor, type PensionFigures, type SurvivorRules } from './figures.ts';
import {
  ageOn,
  ahvChildPension,
  ahvOrphanPension,
  ahvPension,
  ahvWidowPension,
  bvgAge,
  bvgChildPension,
  bvgCoordinatedSalary,
  bvgDisabilityPension,
  bvgDisabilityShare,
  bvgOrphanPension,
  bvgOverinsuranceFactor,
  bvgRetirementPension,
  bvgRetirementSavings,
  bvgSavingsEstimate,
  bvgWidowPension,
  childEntitled,
  coupleCap,
  ivPensionShare,
  ktgMonthly,
  referenceAge,
  retirementStart,
  thirteenthPensionMonthly,
  uvgDailyAllowanceMonthly,
  uvgDisabilityPension,
  uvgSurvivorPensions,
  type Sex,
} from './rules.ts';

export type { Sex } from './rules.ts';

/** The five result tabs (SPEC §1), in their order. */
export const SCENARIOS = [
  'retirement',
  'diseaseDisability',
  'accidentDisability',
  'diseaseDeath',
  'accidentDeath',
] as const;
export type ScenarioKind = (typeof SCENARIOS)[number];

/** The pension kinds of the spec (§3, Global check). */
export type PensionKind =
  'retirement' | 'child' | 'disability' | 'childDisability' | 'death' | 'widow' | 'orphan';

/** Where a benefit comes from. */
export type BenefitSource = 'ahv' | 'iv' | 'bvg' | 'uvg' | 'ktg' | 'own';

export type EmploymentStatus = 'employed' | 'selfEmployed' | 'notEmployed';
export type CivilStatus =
  'single' | 'married' | 'registeredPartnership' | 'divorced' | 'widowed' | 'cohabiting';

/** A cover of the customer's own contracts, CHF a month (a capital converted by the caller). */
export interface OwnCover {
  /** life → the death scenarios (kind death); pillar3a → retirement; disability → both disability
   *  scenarios (kind disability). */
  kind: 'life' | 'pillar3a' | 'disability';
  monthly: number;
  /** Other scenarios than the kind's. */
  scenarios?: readonly ScenarioKind[];
  /** The contract it comes from, for the report. */
  contractId?: string | number | null;
}

export interface GlobalCheckInput {
  /** The day of the check (e.g. swissToday() of src/schema/swiss-time.ts): ages and the children
   *  entitled are counted on it. */
  asOf: string;
  birthDate: string;
  sex: Sex;
  civilStatus: CivilStatus;
  /** The spouse or registered partner (for survivors' pensions and the couple cap). */
  partner?: {
    birthDate?: string | null;
    /** Default: the other sex. */
    sex?: Sex | null;
    /** Default: married long enough (5 years). */
    marriedSince?: string | null;
    /** For the couple cap of the old-age pensions; none given, no cap. */
    grossIncome?: number | null;
    gapYears?: number | null;
  } | null;
  children?: ReadonlyArray<{
    birthDate: string;
    /** In education: pensions until 25 instead of 18. */
    inEducation?: boolean | null;
    /** The other parent died before: a full orphan on the customer's death. */
    otherParentDeceased?: boolean | null;
  }>;
  /** Today's gross income, CHF a year (the AHV average yearly income is taken as equal to it). */
  grossIncome: number;
  employmentStatus: EmploymentStatus;
  /** Since when the customer has worked (BVG credits estimated from then when no savings are
   *  given). */
  employmentDate?: string | null;
  hasPensionMissingYears?: boolean | null;
  /** AHV contribution years missing. */
  gapYears?: number | null;
  /** Today's BVG retirement savings, CHF (from the pension certificate); estimated when absent. */
  bvgSavings?: number | null;
  /** A sickness daily allowance insurance; default: yes when employed. */
  hasKtg?: boolean | null;
  /** The IV degree for the disability scenarios, per cent (default 100). */
  disabilityDegree?: number | null;
  /** The need, a share of today's gross income (default 0.8). */
  needShare?: number | null;
  ownCover?: readonly OwnCover[];
  /** Survivors' rules replacing the table's (the pending reform). */
  survivors?: Partial<SurvivorRules>;
}

/** Notes on a benefit line (translation keys for the report). */
export type BenefitNote =
  'thirteenth' | 'coupleCap' | 'complementary' | 'overinsurance' | 'fullOrphan' | 'partial';

export interface Benefit {
  source: BenefitSource;
  kind: PensionKind;
  /** Who receives it: the customer, the partner, or a child (its index in the input). */
  beneficiary: 'insured' | 'partner' | 'child';
  child?: number;
  /** CHF a month, rounded to francs. */
  monthly: number;
  notes?: BenefitNote[];
  contractId?: string | number | null;
}

export interface ScenarioResult {
  scenario: ScenarioKind;
  /** CHF a month: the need share × today's gross income / 12. */
  need: number;
  benefits: Benefit[];
  /** Earnings still made at a partial disability, CHF a month (counted in the cover). */
  remainingEarnings: number;
  /** The benefits and the remaining earnings, CHF a month (rounded from the unrounded sum). */
  cover: number;
  /** need − cover, not below 0. */
  gap: number;
  /** Disability: the waiting period before the pensions (KTG after a disease, the UVG daily
   *  allowance after an accident). */
  waitingPeriod?: {
    source: 'ktg' | 'uvg' | null;
    fromDay: number;
    /** Days paid (KTG 720), null: until the pension is decided (UVG). */
    days: number | null;
    benefits: Benefit[];
    cover: number;
    gap: number;
  };
}

export interface GlobalCheckResult {
  /** The year asked for, and the year of the figures' row used (./figures.ts, figuresFor). */
  year: number;
  figuresYear: number;
  asOf: string;
  referenceAge: { years: number; months: number };
  retirementStart: string;
  scenarios: Record<ScenarioKind, ScenarioResult>;
}

/** A benefit line while computing: unrounded. */
interface Line extends Omit<Benefit, 'monthly'> {
  amount: number;
}

const OWN_KIND: Record<OwnCover['kind'], PensionKind> = {
  life: 'death',
  pillar3a: 'retirement',
  disability: 'disability',
};
const OWN_SCENARIOS: Record<OwnCover['kind'], readonly ScenarioKind[]> = {
  life: ['diseaseDeath', 'accidentDeath'],
  pillar3a: ['retirement'],
  disability: ['diseaseDisability', 'accidentDisability'],
};

const sum = (lines: readonly Line[]): number => lines.reduce((s, l) => s + l.amount, 0);

function rounded(line: Line): Benefit {
  const { amount, notes, ...rest } = line;
  return { ...rest, monthly: Math.round(amount), ...(notes?.length ? { notes } : {}) };
}

function scenario(
  kind: ScenarioKind,
  needRaw: number,
  lines: Line[],
  remainingRaw = 0,
): ScenarioResult {
  const coverRaw = sum(lines) + remainingRaw;
  return {
    scenario: kind,
    need: Math.round(needRaw),
    benefits: lines.filter((l) => l.amount > 0).map(rounded),
    remainingEarnings: Math.round(remainingRaw),
    cover: Math.round(coverRaw),
    gap: Math.round(Math.max(0, needRaw - coverRaw)),
  };
}

function own(input: GlobalCheckInput, kind: ScenarioKind): Line[] {
  return (input.ownCover ?? [])
    .filter((c) => (c.scenarios ?? OWN_SCENARIOS[c.kind]).includes(kind))
    .map((c) => ({
      source: 'own' as const,
      kind: OWN_KIND[c.kind],
      beneficiary: c.kind === 'life' ? ('partner' as const) : ('insured' as const),
      amount: Math.max(0, c.monthly),
      contractId: c.contractId ?? null,
    }));
}

/** Cut every BVG line by the overinsurance factor (BVV 2 art. 24); notes the lines cut. */
function cutBvg(lines: Line[], others: number, lostMonthly: number, f: PensionFigures): void {
  const bvg = lines.filter((l) => l.source === 'bvg');
  const factor = bvgOverinsuranceFactor(sum(bvg), others, lostMonthly, f);
  if (factor >= 1) return;
  for (const line of bvg) {
    line.amount *= factor;
    line.notes = [...(line.notes ?? []), 'overinsurance'];
  }
}

/**
 * The Global check for a customer with the figures of `year` (./figures.ts, figuresFor). The five
 * scenarios assume the event happens on `asOf` (disability, death) or at the reference age
 * (retirement), with today's income and the law of `year`.
 */
export function computeGlobalCheck(input: GlobalCheckInput, year: number): GlobalCheckResult {
  const f = figuresFor(year, input.survivors);
  const gross = Math.max(0, input.grossIncome);
  const grossMonthly = gross / 12;
  const needRaw = (input.needShare ?? 0.8) * grossMonthly;
  const employed = input.employmentStatus === 'employed';
  const missing = input.hasPensionMissingYears === false ? 0 : (input.gapYears ?? 0);
  const degree = Math.min(100, Math.max(0, input.disabilityDegree ?? 100));
  const children = input.children ?? [];
  const asOfYear = Number(input.asOf.slice(0, 4));
  const reference = referenceAge(input.birthDate, input.sex);
  const start = retirementStart(input.birthDate, input.sex);

  // 1st pillar: the single old-age pension the income and the years give (basis of IV and
  // survivors' pensions). The AHV average income is today's income (simplification).
  const pension = ahvPension(gross, missing, f);

  // 2nd pillar: only employees above the entry threshold (the self-employed have no mandatory BVG).
  const coordinated = employed ? bvgCoordinatedSalary(gross, f) : 0;
  const age = bvgAge(input.birthDate, asOfYear);
  const savings =
    coordinated > 0
      ? (input.bvgSavings ??
        bvgSavingsEstimate(
          coordinated,
          input.employmentDate
            ? bvgAge(input.birthDate, Number(input.employmentDate.slice(0, 4)))
            : 0,
          age,
          f,
        ))
      : 0;
  const bvgFullDisability =
    coordinated > 0 ? bvgDisabilityPension(savings, coordinated, age, reference, f) : 0;

  const entitledNow = children
    .map((child, index) => ({ child, index }))
    .filter(({ child }) => childEntitled(child, input.asOf));

  // --- Retirement -------------------------------------------------------------------------------
  const retirement: Line[] = [];
  {
    let oldAge = pension;
    const notes: BenefitNote[] = [];
    const married =
      input.civilStatus === 'married' || input.civilStatus === 'registeredPartnership';
    if (married && input.partner?.grossIncome != null) {
      const partnerPension = ahvPension(input.partner.grossIncome, input.partner.gapYears ?? 0, f);
      const [capped] = coupleCap(pension, partnerPension, f);
      if (capped < oldAge) notes.push('coupleCap');
      oldAge = capped;
    }
    retirement.push({
      source: 'ahv',
      kind: 'retirement',
      beneficiary: 'insured',
      amount: oldAge,
      notes,
    });
    retirement.push({
      source: 'ahv',
      kind: 'retirement',
      beneficiary: 'insured',
      amount: thirteenthPensionMonthly(oldAge, f),
      notes: ['thirteenth'],
    });
    const bvgOldAge =
      coordinated > 0
        ? bvgRetirementPension(bvgRetirementSavings(savings, coordinated, age, reference, f), f)
        : 0;
    retirement.push({
      source: 'bvg',
      kind: 'retirement',
      beneficiary: 'insured',
      amount: bvgOldAge,
    });
    children.forEach((child, index) => {
      if (!childEntitled(child, start)) return;
      retirement.push({
        source: 'ahv',
        kind: 'child',
        beneficiary: 'child',
        child: index,
        amount: ahvChildPension(pension, f),
      });
      retirement.push({
        source: 'bvg',
        kind: 'child',
        beneficiary: 'child',
        child: index,
        amount: bvgChildPension(bvgOldAge, f),
      });
    });
    retirement.push(...own(input, 'retirement'));
  }

  // --- Disability -------------------------------------------------------------------------------
  const share = ivPensionShare(degree, f);
  const partialNotes: BenefitNote[] = share > 0 && share < 1 ? ['partial'] : [];
  const remaining = grossMonthly * (1 - degree / 100);
  const iv = pension * share;
  const ivLines = (): Line[] => [
    {
      source: 'iv',
      kind: 'disability',
      beneficiary: 'insured',
      amount: iv,
      notes: [...partialNotes],
    },
    ...entitledNow.map(({ index }) => ({
      source: 'iv' as const,
      kind: 'childDisability' as const,
      beneficiary: 'child' as const,
      child: index,
      amount: ahvChildPension(iv, f),
    })),
  ];
  const bvgDisability = bvgFullDisability * bvgDisabilityShare(degree, f);
  const bvgDisabilityLines = (): Line[] => [
    {
      source: 'bvg',
      kind: 'disability',
      beneficiary: 'insured',
      amount: bvgDisability,
      notes: [...partialNotes],
    },
    ...entitledNow.map(({ index }) => ({
      source: 'bvg' as const,
      kind: 'childDisability' as const,
      beneficiary: 'child' as const,
      child: index,
      amount: bvgChildPension(bvgDisability, f),
    })),
  ];

  const diseaseDisability = [...ivLines(), ...bvgDisabilityLines()];
  cutBvg(
    diseaseDisability,
    sum(diseaseDisability.filter((l) => l.source !== 'bvg')) + remaining,
    grossMonthly,
    f,
  );
  diseaseDisability.push(...own(input, 'diseaseDisability'));

  const accidentDisability = [...ivLines()];
  if (employed) {
    const uvg = uvgDisabilityPension(gross, degree, sum(accidentDisability), f);
    accidentDisability.push({
      source: 'uvg',
      kind: 'disability',
      beneficiary: 'insured',
      amount: uvg.paid,
      notes: uvg.paid < uvg.basic ? ['complementary'] : [],
    });
  }
  accidentDisability.push(...bvgDisabilityLines());
  cutBvg(
    accidentDisability,
    sum(accidentDisability.filter((l) => l.source !== 'bvg')) + remaining,
    grossMonthly,
    f,
  );
  accidentDisability.push(...own(input, 'accidentDisability'));

  // --- Death ------------------------------------------------------------------------------------
  // A spouse or registered partner (details optional); a cohabiting partner has no statutory
  // survivors' pension.
  const partnered =
    input.civilStatus === 'married' || input.civilStatus === 'registeredPartnership';
  const partner = input.partner ?? {};
  const partnerSex: Sex = partner.sex ?? (input.sex === 'male' ? 'female' : 'male');
  const partnerAge = partner.birthDate
    ? ageOn(partner.birthDate, input.asOf)
    : ageOn(input.birthDate, input.asOf);
  const marriageYears = partner.marriedSince ? ageOn(partner.marriedSince, input.asOf) : Infinity;
  const rules = f.survivors;
  const childUnder = (limit: number): boolean =>
    children.some((c) => ageOn(c.birthDate, input.asOf) < limit);
  const longMarried = marriageYears >= rules.minMarriageYears;
  const fromAge = (limit: number | null): boolean => limit !== null && partnerAge >= limit;
  const hasOrphan = entitledNow.length > 0;
  const reform = rules.reformWhileChildUnder;
  const eligible = {
    ahv:
      partnered &&
      (reform !== null
        ? childUnder(reform)
        : partnerSex === 'female'
          ? children.length > 0 || (fromAge(rules.ahvWidowWithoutChildFromAge) && longMarried)
          : rules.ahvWidowerWhileChildUnder === null
            ? children.length > 0 || (fromAge(rules.ahvWidowWithoutChildFromAge) && longMarried)
            : childUnder(rules.ahvWidowerWhileChildUnder)),
    bvg:
      partnered &&
      (reform !== null
        ? childUnder(reform)
        : hasOrphan || (fromAge(rules.bvgWithoutChildFromAge) && longMarried)),
    uvg:
      partnered &&
      (reform !== null
        ? childUnder(reform)
        : hasOrphan ||
          (partnerSex === 'female'
            ? fromAge(rules.uvgWidowWithoutChildFromAge)
            : !rules.uvgWidowerOnlyWithChild && fromAge(rules.uvgWidowWithoutChildFromAge))),
  };

  const ahvSurvivors = (): Line[] => [
    {
      source: 'ahv',
      kind: 'widow',
      beneficiary: 'partner',
      amount: eligible.ahv ? ahvWidowPension(pension, f) : 0,
    },
    ...entitledNow.map(({ child, index }) => ({
      source: 'ahv' as const,
      kind: 'orphan' as const,
      beneficiary: 'child' as const,
      child: index,
      amount: ahvOrphanPension(pension, Boolean(child.otherParentDeceased), f),
      notes: child.otherParentDeceased ? (['fullOrphan'] as BenefitNote[]) : [],
    })),
  ];
  // The BVG survivors' pensions are shares of the full disability pension (BVG art. 21 al. 1).
  const bvgSurvivors = (): Line[] => [
    {
      source: 'bvg',
      kind: 'widow',
      beneficiary: 'partner',
      amount: eligible.bvg ? bvgWidowPension(bvgFullDisability, f) : 0,
    },
    ...entitledNow.map(({ index }) => ({
      source: 'bvg' as const,
      kind: 'orphan' as const,
      beneficiary: 'child' as const,
      child: index,
      amount: bvgOrphanPension(bvgFullDisability, f),
    })),
  ];

  const diseaseDeath = [...ahvSurvivors(), ...bvgSurvivors()];
  cutBvg(diseaseDeath, sum(diseaseDeath.filter((l) => l.source !== 'bvg')), grossMonthly, f);
  diseaseDeath.push(...own(input, 'diseaseDeath'));

  const accidentDeath = [...ahvSurvivors()];
  if (employed) {
    const uvg = uvgSurvivorPensions(
      gross,
      eligible.uvg,
      entitledNow.map(({ child }) => ({ fullOrphan: Boolean(child.otherParentDeceased) })),
      sum(accidentDeath),
      f,
    );
    const complementary: BenefitNote[] = uvg.complementary ? ['complementary'] : [];
    accidentDeath.push({
      source: 'uvg',
      kind: 'widow',
      beneficiary: 'partner',
      amount: uvg.widow,
      notes: [...complementary],
    });
    entitledNow.forEach(({ child, index }, i) =>
      accidentDeath.push({
        source: 'uvg',
        kind: 'orphan',
        beneficiary: 'child',
        child: index,
        amount: uvg.orphans[i],
        notes: [...complementary, ...(child.otherParentDeceased ? (['fullOrphan'] as const) : [])],
      }),
    );
  }
  accidentDeath.push(...bvgSurvivors());
  cutBvg(accidentDeath, sum(accidentDeath.filter((l) => l.source !== 'bvg')), grossMonthly, f);
  accidentDeath.push(...own(input, 'accidentDeath'));

  // --- Waiting periods --------------------------------------------------------------------------
  const waiting = (
    source: 'ktg' | 'uvg' | null,
    amount: number,
    fromDay: number,
    days: number | null,
  ): NonNullable<ScenarioResult['waitingPeriod']> => {
    const lines: Line[] =
      source && amount > 0 ? [{ source, kind: 'disability', beneficiary: 'insured', amount }] : [];
    const coverRaw = amount + remaining;
    return {
      source: lines.length ? source : null,
      fromDay,
      days,
      benefits: lines.map(rounded),
      cover: Math.round(coverRaw),
      gap: Math.round(Math.max(0, needRaw - coverRaw)),
    };
  };
  const hasKtg = input.hasKtg ?? employed;

  return {
    year,
    figuresYear: f.year,
    asOf: input.asOf,
    referenceAge: reference,
    retirementStart: start,
    scenarios: {
      retirement: scenario('retirement', needRaw, retirement),
      diseaseDisability: {
        ...scenario('diseaseDisability', needRaw, diseaseDisability, remaining),
        waitingPeriod: hasKtg
          ? waiting(
              'ktg',
              ktgMonthly(gross, degree, f),
              f.ktg.waitingDays + 1,
              f.ktg.days - f.ktg.waitingDays,
            )
          : waiting(null, 0, 1, null),
      },
      accidentDisability: {
        ...scenario('accidentDisability', needRaw, accidentDisability, remaining),
        waitingPeriod: employed
          ? waiting(
              'uvg',
              uvgDailyAllowanceMonthly(gross, degree, f),
              f.uvg.dailyAllowanceFromDay,
              null,
            )
          : waiting(null, 0, 1, null),
      },
      diseaseDeath: scenario('diseaseDeath', needRaw, diseaseDeath),
      accidentDeath: scenario('accidentDeath', needRaw, accidentDeath),
    },
  };
}
