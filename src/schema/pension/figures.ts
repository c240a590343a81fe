/**
 * The official Swiss figures of the Global check (issue 19; DOMAIN.md §5): ONE dated table, one
 * row per year, every value with its source. Nothing else in the pension engine holds a figure of
 * law; the rules (./rules.ts) and the scenarios (./gap.ts) read them from the row `figuresFor(year)`
 * picks. Amounts are CHF, a month for pensions (as the AHV scale tables state them) and a year for
 * salaries and limits (as the BVG, UVG and 3a ordinances state them); shares are fractions.
 *
 * Sources, cited by short name below:
 * - "Skala 44": the federal AHV/IV pension tables (BSV/OFAS, "Rententabellen 2025 AHV/IV, gültig
 *   ab 1. Januar 2025"), scale 44 = full contribution years; the same amounts apply in 2026 (the
 *   Federal Council adjusts pensions every second year, next on 1 January 2027).
 * - "Änderungen 2025": BSV/OFAS and the AHV/IV information office, leaflet "Änderungen auf
 *   1. Januar 2025 bei Beiträgen und Leistungen" (AHV pensions, BVG limits, pillar 3a).
 * - AHVG / IVG / BVG / BVV 2 / BVV 3 / UVG / UVV: the federal acts and ordinances (SR 831.10,
 *   831.20, 831.40, 831.441.1, 831.461.3, 832.20, 832.202) in force on 1 January 2025, with the
 *   AHV 21 reform (reference age, in force 1 January 2024) and the 13th old-age pension (AHVG
 *   art. 34bis, accepted 3 March 2024, first paid in December 2026).
 */

/** Who receives a survivors' pension: a reform is pending (Federal Council's message of 23 October
 *  2024 on the survivors' pensions), so the conditions are parameters, not code. */
export interface SurvivorRules {
  /** AHVG art. 24 al. 1: a widow without children receives a pension from this age at widowhood, if
   *  married at least `minMarriageYears` years. */
  ahvWidowWithoutChildFromAge: number | null;
  /** AHVG art. 24 al. 2: a widower receives his pension only while a child is under this age. */
  ahvWidowerWhileChildUnder: number | null;
  /** BVG art. 19: a widow or widower without a child entitled to an orphan's pension, from this age
   *  at widowhood and `minMarriageYears` of marriage (otherwise the pension fund pays a lump sum of
   *  three annual pensions, not counted here). */
  bvgWithoutChildFromAge: number | null;
  /** UVG art. 29 al. 3: a widow without a child entitled to a pension, from this age. */
  uvgWidowWithoutChildFromAge: number | null;
  /** UVG art. 29 al. 3: a widower only with a child entitled to a pension. */
  uvgWidowerOnlyWithChild: boolean;
  /** AHVG art. 24 al. 1, BVG art. 19 al. 1 b. */
  minMarriageYears: number;
  /** The pending reform: when set, a widow or widower (every scheme) receives the pension only while
   *  a child is under this age (the message proposes 25); null = the law in force. */
  reformWhileChildUnder: number | null;
}

export interface PensionFigures {
  /** The calendar year the row is valid for. */
  year: number;
  ahv: {
    /** Skala 44, 2025: minimum full single old-age pension, CHF a month (AHVG art. 34 al. 5). */
    minPension: number;
    /** Skala 44, 2025: maximum full single old-age pension, CHF a month (twice the minimum). */
    maxPension: number;
    /** AHVG art. 34: up to 36 × the minimum pension the pension is 74 % of the minimum plus 13/600
     *  of the average yearly income; above it, 104 % of the minimum plus 8/600 of the income. */
    formula: {
      breakIncomeFactor: number;
      lowerFixedShare: number;
      lowerVariableShare: number;
      upperFixedShare: number;
      upperVariableShare: number;
    };
    /** AHVG art. 35: two old-age (or IV) pensions of a married couple, at most 150 % of the maximum. */
    coupleCapShare: number;
    /** Skala 44: full contribution years (a full pension); each missing year ≈ 1/44 less
     *  (AHVG art. 38, partial pensions, scales 1–43). */
    fullContributionYears: number;
    /** AHVG art. 35ter / IVG art. 35: child pension 40 % of the parent's pension. */
    childShare: number;
    /** AHVG art. 35ter al. 2 / art. 37 al. 1bis: two pensions for one child (both parents), together
     *  at most 60 % of the maximum pension. */
    twoChildPensionsMaxShareOfMax: number;
    /** AHVG art. 36: widow's or widower's pension 80 % of the deceased's old-age pension. */
    widowShare: number;
    /** AHVG art. 37 al. 1: orphan's pension 40 % of the deceased's old-age pension. */
    orphanShare: number;
    /** AHVG art. 37 al. 1bis: a full orphan's two pensions, together at most 60 % of the maximum. */
    fullOrphanMaxShareOfMax: number;
    /** AHVG art. 34bis (13th old-age pension): one twelfth of the year's old-age pensions, paid in
     *  December; first in December 2026. Old-age pensions only (not IV, survivors', child). */
    thirteenthOldAgePension: boolean;
  };
  iv: {
    /** IVG art. 28b (since 1 January 2022): below this degree no pension. */
    minDegree: number;
    /** IVG art. 28b al. 4: at 40 % a quarter pension (25 %). */
    shareAtMinDegree: number;
    /** IVG art. 28b al. 4: from 41 % to 49 %, +2.5 percentage points of a full pension per point. */
    stepPerPointBelowHalf: number;
    /** IVG art. 28b al. 2: from 50 % to 69 % the share equals the degree. */
    shareEqualsDegreeFrom: number;
    /** IVG art. 28b al. 3: from 70 % a full pension. */
    fullFrom: number;
  };
  bvg: {
    /** BVG art. 7, BVV 2 art. 5 (Änderungen 2025): entry threshold, CHF a year. */
    entryThreshold: number;
    /** BVG art. 8 al. 1, BVV 2 art. 5: coordination deduction. */
    coordinationDeduction: number;
    /** BVG art. 8 al. 1, BVV 2 art. 5: upper limit of the salary insured. */
    upperLimit: number;
    /** BVG art. 8 al. 2, BVV 2 art. 5: minimum coordinated salary. */
    minCoordinatedSalary: number;
    /** BVG art. 8 (upper limit − coordination deduction): maximum coordinated salary. */
    maxCoordinatedSalary: number;
    /** BVG art. 16: age credits in % of the coordinated salary, by BVG age (calendar year − year of
     *  birth), from the age given until the next band (the last until the reference age). */
    ageCredits: ReadonlyArray<{ fromAge: number; share: number }>;
    /** BVV 2 art. 12 (Federal Council, minimum interest 2024, 2025 and 2026). */
    minimumInterest: number;
    /** BVG art. 14 al. 2: conversion rate of the mandatory savings at the reference age. */
    conversionRate: number;
    /** BVG art. 21 al. 1: widow's or widower's pension 60 % of the disability pension. */
    widowShare: number;
    /** BVG art. 21 al. 2: orphan's pension 20 %. */
    orphanShare: number;
    /** BVG art. 25: child pension to a disability (or old-age, art. 17) pension 20 %. */
    childShare: number;
    /** BVV 2 art. 24 al. 1: the benefits with the other social insurances' and the remaining
     *  earnings at most 90 % of the presumably lost income (overinsurance). */
    overinsuranceShare: number;
  };
  uvg: {
    /** UVG art. 18 al. 1: a disability pension from this degree of disability. */
    minDegree: number;
    /** UVG art. 15 al. 3, UVV art. 22 al. 1 (since 2016): maximum insured earnings, CHF a year. */
    maxInsuredEarnings: number;
    /** UVG art. 20 al. 1: disability pension at full disability, 80 % of the insured earnings. */
    disabilityShare: number;
    /** UVG art. 20 al. 2: together with AHV/IV pensions at most 90 % (the UVG pays a complementary
     *  pension). */
    withAhvIvMaxShare: number;
    /** UVG art. 31 al. 1: widow or widower 40 %, half orphan 15 %, full orphan 25 %, together at most
     *  70 %. */
    widowShare: number;
    halfOrphanShare: number;
    fullOrphanShare: number;
    survivorsMaxShare: number;
    /** UVG art. 31 al. 4: survivors' complementary pension, with AHV/IV at most 90 %. */
    survivorsWithAhvIvMaxShare: number;
    /** UVG art. 16 al. 2, art. 17 al. 1: daily allowance 80 % of the insured earnings, from the
     *  third day after the accident. */
    dailyAllowanceShare: number;
    dailyAllowanceFromDay: number;
  };
  ktg: {
    /** Collective sickness daily allowance (VVG contracts; KVG art. 72 al. 3 for the KVG one): usually
     *  80 % of the salary for 720 days within 900. Not mandatory: a market standard. */
    share: number;
    days: number;
    withinDays: number;
    /** Days before the allowance starts (the waiting period the policy chooses; the employer's
     *  salary continuation, OR art. 324a, covers them). The allowance is paid from the next day
     *  for `days` less these. A market standard, not a law. */
    waitingDays: number;
  };
  pillar3a: {
    /** BVV 3 art. 7 al. 1 a (Änderungen 2025): with a pension fund, CHF a year. */
    withPensionFund: number;
    /** BVV 3 art. 7 al. 1 b: without a pension fund, 20 % of the earned income, up to this. */
    withoutPensionFundShare: number;
    withoutPensionFundMax: number;
    /** BVV 3 art. 7a (from 2026): a year's gap from 2025 on may be paid in later. */
    catchUpFromYear: number | null;
  };
  survivors: SurvivorRules;
}

/** AHVG art. 21 al. 1 and the AHV 21 transitional provisions (in force 1 January 2024): the
 *  reference age of women born in these years (years, months); women born later and all men 65. */
export const WOMEN_REFERENCE_AGE: Readonly<Record<number, { years: number; months: number }>> = {
  1960: { years: 64, months: 0 },
  1961: { years: 64, months: 3 },
  1962: { years: 64, months: 6 },
  1963: { years: 64, months: 9 },
};
/** AHVG art. 21 al. 1: the reference age, 65. */
export const REFERENCE_AGE = { years: 65, months: 0 } as const;

/** The survivors' rules of the law in force (2025 and 2026). */
const SURVIVORS_IN_FORCE: SurvivorRules = {
  ahvWidowWithoutChildFromAge: 45, // AHVG art. 24 al. 1
  ahvWidowerWhileChildUnder: 18, // AHVG art. 24 al. 2
  bvgWithoutChildFromAge: 45, // BVG art. 19 al. 1 b
  uvgWidowWithoutChildFromAge: 45, // UVG art. 29 al. 3
  uvgWidowerOnlyWithChild: true, // UVG art. 29 al. 3
  minMarriageYears: 5, // AHVG art. 24 al. 1, BVG art. 19 al. 1 b
  reformWhileChildUnder: null, // the reform is pending
};

const ROW_2025: PensionFigures = {
  year: 2025,
  ahv: {
    minPension: 1260, // Skala 44 2025; Änderungen 2025 ("minimale AHV/IV-Rente 1260 Franken")
    maxPension: 2520, // Skala 44 2025; Änderungen 2025 ("maximale Rente 2520 Franken")
    formula: {
      breakIncomeFactor: 36, // AHVG art. 34 al. 2–3: 36 × 1,260 = 45,360
      lowerFixedShare: 0.74, // AHVG art. 34 al. 2 a
      lowerVariableShare: 13 / 600, // AHVG art. 34 al. 2 b
      upperFixedShare: 1.04, // AHVG art. 34 al. 3 a
      upperVariableShare: 8 / 600, // AHVG art. 34 al. 3 b
    },
    coupleCapShare: 1.5, // AHVG art. 35 al. 1: 150 % → 3,780 (Änderungen 2025)
    fullContributionYears: 44, // Skala 44
    childShare: 0.4, // AHVG art. 35ter al. 1, IVG art. 35 al. 1
    twoChildPensionsMaxShareOfMax: 0.6, // AHVG art. 35ter al. 2
    widowShare: 0.8, // AHVG art. 36
    orphanShare: 0.4, // AHVG art. 37 al. 1
    fullOrphanMaxShareOfMax: 0.6, // AHVG art. 37 al. 1bis
    thirteenthOldAgePension: false, // AHVG art. 34bis: first paid in December 2026
  },
  iv: {
    minDegree: 40, // IVG art. 28 al. 1 c, art. 28b al. 4
    shareAtMinDegree: 0.25, // IVG art. 28b al. 4 (40 % → 25 %)
    stepPerPointBelowHalf: 0.025, // IVG art. 28b al. 4 (41 % → 27.5 % … 49 % → 47.5 %)
    shareEqualsDegreeFrom: 50, // IVG art. 28b al. 2
    fullFrom: 70, // IVG art. 28b al. 3
  },
  bvg: {
    entryThreshold: 22680, // BVV 2 art. 5; Änderungen 2025
    coordinationDeduction: 26460, // BVV 2 art. 5; Änderungen 2025
    upperLimit: 90720, // BVV 2 art. 5; Änderungen 2025
    minCoordinatedSalary: 3780, // BVV 2 art. 5; Änderungen 2025
    maxCoordinatedSalary: 64260, // 90,720 − 26,460 (BVG art. 8 al. 1)
    ageCredits: [
      { fromAge: 25, share: 0.07 }, // BVG art. 16: 25–34
      { fromAge: 35, share: 0.1 }, // 35–44
      { fromAge: 45, share: 0.15 }, // 45–54
      { fromAge: 55, share: 0.18 }, // 55 to the reference age
    ],
    minimumInterest: 0.0125, // BVV 2 art. 12 (1.25 % for 2024, 2025 and 2026)
    conversionRate: 0.068, // BVG art. 14 al. 2
    widowShare: 0.6, // BVG art. 21 al. 1
    orphanShare: 0.2, // BVG art. 21 al. 2
    childShare: 0.2, // BVG art. 25 (disability), art. 17 (old age)
    overinsuranceShare: 0.9, // BVV 2 art. 24 al. 1
  },
  uvg: {
    minDegree: 10, // UVG art. 18 al. 1
    maxInsuredEarnings: 148200, // UVV art. 22 al. 1 (since 1 January 2016)
    disabilityShare: 0.8, // UVG art. 20 al. 1
    withAhvIvMaxShare: 0.9, // UVG art. 20 al. 2
    widowShare: 0.4, // UVG art. 31 al. 1 a
    halfOrphanShare: 0.15, // UVG art. 31 al. 1 b
    fullOrphanShare: 0.25, // UVG art. 31 al. 1 c
    survivorsMaxShare: 0.7, // UVG art. 31 al. 1 (together 70 %)
    survivorsWithAhvIvMaxShare: 0.9, // UVG art. 31 al. 4
    dailyAllowanceShare: 0.8, // UVG art. 17 al. 1
    dailyAllowanceFromDay: 3, // UVG art. 16 al. 2
  },
  ktg: { share: 0.8, days: 720, withinDays: 900, waitingDays: 30 }, // market standard; KVG art. 72 al. 3
  pillar3a: {
    withPensionFund: 7258, // BVV 3 art. 7 al. 1 a; Änderungen 2025
    withoutPensionFundShare: 0.2, // BVV 3 art. 7 al. 1 b
    withoutPensionFundMax: 36288, // BVV 3 art. 7 al. 1 b; Änderungen 2025
    catchUpFromYear: null, // BVV 3 art. 7a applies from 2026
  },
  survivors: SURVIVORS_IN_FORCE,
};

/** 2026: the 2025 figures (no pension adjustment in 2026; BVG limits, the minimum interest of
 *  1.25 % and the 3a limits unchanged), plus the 13th old-age pension and the 3a catch-up. */
const ROW_2026: PensionFigures = {
  ...ROW_2025,
  year: 2026,
  ahv: { ...ROW_2025.ahv, thirteenthOldAgePension: true }, // AHVG art. 34bis, from December 2026
  pillar3a: { ...ROW_2025.pillar3a, catchUpFromYear: 2025 }, // BVV 3 art. 7a (in force 2026)
};

/** The table, oldest first. A new year is one row here, with its sources. */
export const PENSION_FIGURES: readonly PensionFigures[] = [ROW_2025, ROW_2026];

/** The row for a year: a year before the first row takes the first, a year after the last the
 *  last. `survivors` replaces some of the survivors' rules (the pending reform). */
export function figuresFor(year: number, survivors?: Partial<SurvivorRules>): PensionFigures {
  const rows = PENSION_FIGURES;
  const row = [...rows].reverse().find((candidate) => candidate.year <= year) ?? rows[0];
  return survivors ? { ...row, survivors: { ...row.survivors, ...survivors } } : row;
}
