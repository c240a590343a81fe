/**
 * The benefit rules of the Global check (issue 19): one pure function per benefit, each reading its
 * figures from a row of ./figures.ts. Pensions are CHF a month and are NOT rounded here (the
 * scenarios round to francs at the very end, ./gap.ts); salaries and savings are CHF a year.
 * Dates are plain days (YYYY-MM-DD).
 */
import { REFERENCE_AGE, WOMEN_REFERENCE_AGE, type PensionFigures } from './figures.ts';

export type Sex = 'female' | 'male';

// ---------------------------------------------------------------------------------------------
// Dates and ages

function parts(day: string): { year: number; month: number; day: number } {
  const [year, month, date] = day.slice(0, 10).split('-').map(Number);
  return { year, month, day: date };
}

/** Completed years of age on a day. */
export function ageOn(birthDate: string, day: string): number {
  const birth = parts(birthDate);
  const on = parts(day);
  const before = on.month < birth.month || (on.month === birth.month && on.day < birth.day);
  return on.year - birth.year - (before ? 1 : 0);
}

/** The BVG age: the calendar year less the year of birth (BVG art. 16, credits by calendar year). */
export function bvgAge(birthDate: string, year: number): number {
  return year - parts(birthDate).year;
}

/** The AHV reference age (AHVG art. 21; AHV 21: women born 1961 64 y 3 m, 1962 64 y 6 m, 1963
 *  64 y 9 m, from 1964 65; women born 1960 or earlier 64; men 65). */
export function referenceAge(birthDate: string, sex: Sex): { years: number; months: number } {
  if (sex === 'male') return { ...REFERENCE_AGE };
  const year = parts(birthDate).year;
  const first = Math.min(...Object.keys(WOMEN_REFERENCE_AGE).map(Number));
  const step = WOMEN_REFERENCE_AGE[Math.max(year, first)];
  return step ? { ...step } : { ...REFERENCE_AGE };
}

/** The first day of the old-age pension: the first of the month after the reference age is
 *  reached (AHVG art. 21 al. 2). */
export function retirementStart(birthDate: string, sex: Sex): string {
  const birth = parts(birthDate);
  const age = referenceAge(birthDate, sex);
  // The month in which the reference age is reached, counted from year 0.
  const reached = birth.year * 12 + (birth.month - 1) + age.years * 12 + age.months;
  const start = reached + 1;
  const year = Math.floor(start / 12);
  const month = (start % 12) + 1;
  return `${year}-${String(month).padStart(2, '0')}-01`;
}

/** A child is entitled to a child's or orphan's pension under 18, in education under 25
 *  (AHVG art. 25 al. 4–5, BVG art. 22, UVG art. 30). */
export function childEntitled(
  child: { birthDate: string; inEducation?: boolean | null },
  day: string,
): boolean {
  return ageOn(child.birthDate, day) < (child.inEducation ? 25 : 18);
}

// ---------------------------------------------------------------------------------------------
// AHV / IV (1st pillar)

/**
 * The full (scale 44) single old-age pension, CHF a month, for an average yearly income (AHVG
 * art. 34, the formula the Skala 44 tables are computed from): the minimum up to 12 × the minimum
 * pension (15,120); up to 36 × the minimum (45,360) 74 % of the minimum + 13/600 of the income;
 * above, 104 % of the minimum + 8/600 of the income; the maximum from 72 × the minimum (90,720).
 * Simplification: applied continuously; the published table lists incomes in rows CHF 1,512 apart
 * (rounded up to the next row) and pensions in whole francs.
 */
export function ahvFullPension(averageIncome: number, f: PensionFigures): number {
  const { minPension, maxPension, formula } = f.ahv;
  const income = Math.max(0, averageIncome);
  const pension =
    income <= formula.breakIncomeFactor * minPension
      ? formula.lowerFixedShare * minPension + formula.lowerVariableShare * income
      : formula.upperFixedShare * minPension + formula.upperVariableShare * income;
  return Math.min(maxPension, Math.max(minPension, pension));
}

/** The share of a full pension with missing contribution years: (44 − missing) / 44 (AHVG art. 38,
 *  scales 1–43 simplified to whole years). */
export function contributionShare(missingYears: number, f: PensionFigures): number {
  const full = f.ahv.fullContributionYears;
  const missing = Math.min(full, Math.max(0, Math.floor(missingYears)));
  return (full - missing) / full;
}

/** The single old-age pension (also the basis of IV and survivors' pensions), CHF a month. */
export function ahvPension(averageIncome: number, missingYears: number, f: PensionFigures): number {
  return ahvFullPension(averageIncome, f) * contributionShare(missingYears, f);
}

/** A married couple's two pensions, together at most 150 % of the maximum (AHVG art. 35): both
 *  reduced in proportion. */
export function coupleCap(own: number, partner: number, f: PensionFigures): [number, number] {
  const cap = f.ahv.coupleCapShare * f.ahv.maxPension;
  const sum = own + partner;
  if (sum <= cap || sum === 0) return [own, partner];
  return [(own * cap) / sum, (partner * cap) / sum];
}

/** The 13th old-age pension spread over the year (AHVG art. 34bis): one twelfth of the year's
 *  old-age pensions, so the monthly pension / 12 a month — old-age pensions only, from 2026. */
export function thirteenthPensionMonthly(oldAgePension: number, f: PensionFigures): number {
  return f.ahv.thirteenthOldAgePension ? oldAgePension / 12 : 0;
}

/** The IV degree (whole per cent, rounded) → the share of a full pension (IVG art. 28b): below 40
 *  none; 40 → 25 %; 41–49 → +2.5 points a point; 50–69 → the degree; from 70 full. */
export function ivPensionShare(degree: number, f: PensionFigures): number {
  const d = Math.round(degree);
  const iv = f.iv;
  if (d < iv.minDegree) return 0;
  if (d >= iv.fullFrom) return 1;
  if (d >= iv.shareEqualsDegreeFrom) return d / 100;
  return iv.shareAtMinDegree + iv.stepPerPointBelowHalf * (d - iv.minDegree);
}

/** The IV pension, CHF a month: the pension the average income and years give × the share. */
export function ivPension(
  averageIncome: number,
  missingYears: number,
  degree: number,
  f: PensionFigures,
): number {
  return ahvPension(averageIncome, missingYears, f) * ivPensionShare(degree, f);
}

/** A child's pension to an old-age or IV pension: 40 % of it (AHVG art. 35ter, IVG art. 35). */
export function ahvChildPension(parentPension: number, f: PensionFigures): number {
  return f.ahv.childShare * parentPension;
}

/** Two child pensions for one child (both parents have a pension): together at most 60 % of the
 *  maximum pension (AHVG art. 35ter al. 2). */
export function twoChildPensions(first: number, second: number, f: PensionFigures): number {
  return Math.min(
    f.ahv.childShare * (first + second),
    f.ahv.twoChildPensionsMaxShareOfMax * f.ahv.maxPension,
  );
}

/** The widow's or widower's pension: 80 % of the deceased's old-age pension (AHVG art. 36). */
export function ahvWidowPension(deceasedPension: number, f: PensionFigures): number {
  return f.ahv.widowShare * deceasedPension;
}

/**
 * The orphan's pension: 40 % of the deceased's old-age pension (AHVG art. 37 al. 1). A full orphan
 * (the other parent died before) has two orphan's pensions, together at most 60 % of the maximum
 * (art. 37 al. 1bis); the other parent's is taken as equal to this one's (simplification), and the
 * amount returned is both together.
 */
export function ahvOrphanPension(
  deceasedPension: number,
  fullOrphan: boolean,
  f: PensionFigures,
): number {
  const one = f.ahv.orphanShare * deceasedPension;
  return fullOrphan ? Math.min(2 * one, f.ahv.fullOrphanMaxShareOfMax * f.ahv.maxPension) : one;
}

// ---------------------------------------------------------------------------------------------
// BVG (2nd pillar, the mandatory minimum)

/** The coordinated salary, CHF a year (BVG art. 7–8): none below the entry threshold; the salary
 *  up to the upper limit less the coordination deduction, at least the minimum coordinated salary. */
export function bvgCoordinatedSalary(grossIncome: number, f: PensionFigures): number {
  const b = f.bvg;
  if (grossIncome < b.entryThreshold) return 0;
  const coordinated = Math.min(grossIncome, b.upperLimit) - b.coordinationDeduction;
  return Math.min(b.maxCoordinatedSalary, Math.max(b.minCoordinatedSalary, coordinated));
}

/** The age credit share at a BVG age (BVG art. 16): none before 25. */
export function bvgAgeCreditShare(age: number, f: PensionFigures): number {
  let share = 0;
  for (const band of f.bvg.ageCredits) if (age >= band.fromAge) share = band.share;
  return share;
}

/** The age credits still to come, as (age, fraction of the year) from `fromAge` to the reference
 *  age: whole years up to the year before it, and the months of the year it is reached in
 *  (women born 1961–1963). */
function creditYears(
  fromAge: number,
  reference: { years: number; months: number },
): Array<[number, number]> {
  const years: Array<[number, number]> = [];
  for (let age = fromAge; age < reference.years; age++) years.push([age, 1]);
  if (reference.months > 0 && fromAge <= reference.years)
    years.push([reference.years, reference.months / 12]);
  return years;
}

/**
 * The savings today when the customer does not know them: the age credits on today's coordinated
 * salary from the BVG age `fromAge` (25, or the year work started if later) to last year, with the
 * minimum interest on the savings at each year's start (credits are booked at the year's end).
 */
export function bvgSavingsEstimate(
  coordinatedSalary: number,
  fromAge: number,
  currentAge: number,
  f: PensionFigures,
): number {
  let savings = 0;
  for (let age = Math.max(fromAge, 0); age < currentAge; age++)
    savings = savings * (1 + f.bvg.minimumInterest) + bvgAgeCreditShare(age, f) * coordinatedSalary;
  return savings;
}

/** The retirement savings projected to the reference age (BVG art. 15): today's savings with the
 *  minimum interest each year plus the age credits on today's coordinated salary. CHF. */
export function bvgRetirementSavings(
  savings: number,
  coordinatedSalary: number,
  currentAge: number,
  reference: { years: number; months: number },
  f: PensionFigures,
): number {
  let total = savings;
  for (const [age, fraction] of creditYears(currentAge, reference))
    total =
      total * (1 + f.bvg.minimumInterest * fraction) +
      bvgAgeCreditShare(age, f) * coordinatedSalary * fraction;
  return total;
}

/** The BVG old-age pension, CHF a month: the projected savings × the conversion rate / 12. */
export function bvgRetirementPension(retirementSavings: number, f: PensionFigures): number {
  return (retirementSavings * f.bvg.conversionRate) / 12;
}

/**
 * The full BVG disability pension, CHF a month (BVG art. 24 al. 2–3): today's savings plus the age
 * credits for the years to the reference age, on the last coordinated salary and without interest,
 * × the conversion rate / 12. The survivors' pensions are shares of it (art. 21).
 */
export function bvgDisabilityPension(
  savings: number,
  coordinatedSalary: number,
  currentAge: number,
  reference: { years: number; months: number },
  f: PensionFigures,
): number {
  let total = savings;
  for (const [age, fraction] of creditYears(currentAge, reference))
    total += bvgAgeCreditShare(age, f) * coordinatedSalary * fraction;
  return (total * f.bvg.conversionRate) / 12;
}

/** The share of the BVG disability pension paid at an IV degree: the IV's (BVG art. 24a, since
 *  2022 the same linear system as IVG art. 28b). */
export const bvgDisabilityShare = ivPensionShare;

/** BVG widow's or widower's pension: 60 % of the (full) disability pension (BVG art. 21 al. 1). */
export function bvgWidowPension(disabilityPension: number, f: PensionFigures): number {
  return f.bvg.widowShare * disabilityPension;
}

/** BVG orphan's pension: 20 % (BVG art. 21 al. 2). */
export function bvgOrphanPension(disabilityPension: number, f: PensionFigures): number {
  return f.bvg.orphanShare * disabilityPension;
}

/** BVG child's pension to a disability or old-age pension: 20 % (BVG art. 25, art. 17). */
export function bvgChildPension(parentPension: number, f: PensionFigures): number {
  return f.bvg.childShare * parentPension;
}

/**
 * Overinsurance (BVV 2 art. 24): the BVG benefits are cut so that they, the other social
 * insurances' benefits and the earnings still made stay within 90 % of the presumably lost income.
 * Returns the factor (0–1) to apply to every BVG benefit of the case.
 */
export function bvgOverinsuranceFactor(
  bvgTotal: number,
  otherIncome: number,
  lostIncomeMonthly: number,
  f: PensionFigures,
): number {
  if (bvgTotal <= 0) return 1;
  const room = Math.max(0, f.bvg.overinsuranceShare * lostIncomeMonthly - otherIncome);
  return Math.min(1, room / bvgTotal);
}

// ---------------------------------------------------------------------------------------------
// UVG (accident)

/** The insured earnings, CHF a year, up to the maximum (UVG art. 15, UVV art. 22). */
export function uvgInsuredEarnings(grossIncome: number, f: PensionFigures): number {
  return Math.min(Math.max(0, grossIncome), f.uvg.maxInsuredEarnings);
}

/**
 * The UVG disability pension, CHF a month (UVG art. 20): 80 % of the insured earnings at full
 * disability, in proportion below (none under 10 %). With AHV/IV pensions (the IV's and its child
 * pensions) it is a complementary pension: 90 % of the insured earnings less those, at most the
 * 80 % pension.
 */
export function uvgDisabilityPension(
  grossIncome: number,
  degree: number,
  ahvIvMonthly: number,
  f: PensionFigures,
): { basic: number; paid: number } {
  const insured = uvgInsuredEarnings(grossIncome, f) / 12;
  const d = Math.min(100, Math.max(0, degree));
  const basic = d < f.uvg.minDegree ? 0 : f.uvg.disabilityShare * insured * (d / 100);
  if (ahvIvMonthly <= 0) return { basic, paid: basic };
  const complementary = Math.max(0, f.uvg.withAhvIvMaxShare * insured - ahvIvMonthly);
  return { basic, paid: Math.min(basic, complementary) };
}

/**
 * The UVG survivors' pensions, CHF a month each (UVG art. 31): widow or widower 40 %, half orphan
 * 15 %, full orphan 25 % of the insured earnings; together at most 70 % (reduced in proportion).
 * With AHV/IV survivors' pensions, together with them at most 90 % (a complementary pension,
 * art. 31 al. 4), again reduced in proportion.
 */
export function uvgSurvivorPensions(
  grossIncome: number,
  widow: boolean,
  orphans: ReadonlyArray<{ fullOrphan: boolean }>,
  ahvSurvivorsMonthly: number,
  f: PensionFigures,
): { widow: number; orphans: number[]; complementary: boolean } {
  const insured = uvgInsuredEarnings(grossIncome, f) / 12;
  const u = f.uvg;
  const widowRaw = widow ? u.widowShare * insured : 0;
  const orphansRaw = orphans.map(
    (o) => (o.fullOrphan ? u.fullOrphanShare : u.halfOrphanShare) * insured,
  );
  const raw = widowRaw + orphansRaw.reduce((a, b) => a + b, 0);
  if (raw <= 0) return { widow: 0, orphans: orphansRaw, complementary: false };
  const capped = Math.min(raw, u.survivorsMaxShare * insured);
  const allowed =
    ahvSurvivorsMonthly > 0
      ? Math.min(capped, Math.max(0, u.survivorsWithAhvIvMaxShare * insured - ahvSurvivorsMonthly))
      : capped;
  const factor = allowed / raw;
  return {
    widow: widowRaw * factor,
    orphans: orphansRaw.map((o) => o * factor),
    complementary: allowed < capped,
  };
}

/** The UVG daily allowance as CHF a month: 80 % of the insured earnings at the degree of
 *  incapacity, from the third day (UVG art. 16–17). */
export function uvgDailyAllowanceMonthly(
  grossIncome: number,
  degree: number,
  f: PensionFigures,
): number {
  return (f.uvg.dailyAllowanceShare * uvgInsuredEarnings(grossIncome, f) * (degree / 100)) / 12;
}

/** The sickness daily allowance (KTG) as CHF a month: 80 % of the salary at the degree of
 *  incapacity (the contract's cap, if any, is not known here). */
export function ktgMonthly(grossIncome: number, degree: number, f: PensionFigures): number {
  return (f.ktg.share * Math.max(0, grossIncome) * (degree / 100)) / 12;
}

// ---------------------------------------------------------------------------------------------
// Pillar 3a

/** The yearly pillar-3a maximum (BVV 3 art. 7): with a pension fund the fixed amount; without,
 *  20 % of the earned income up to the upper amount. */
export function pillar3aLimit(
  grossIncome: number,
  withPensionFund: boolean,
  f: PensionFigures,
): number {
  const p = f.pillar3a;
  return withPensionFund
    ? p.withPensionFund
    : Math.min(p.withoutPensionFundMax, p.withoutPensionFundShare * Math.max(0, grossIncome));
}
