/**
 * The car-insurance comparison's steps and rules (issue 18, DOMAIN.md §4), shared by the server
 * (server/comparison/, which enforces them on every save) and the wizard (src/custom/comparison/,
 * which shows the same messages before sending). A draft is saved step by step: saving step n
 * checks that step's fields (required ones present, the rules below) and counts it done when the
 * steps before it are done too. Field paths are the draft's camelCase ones (`car.kilometres`);
 * the API names them in snake_case (`car.kilometres`, `driver.licence_date`).
 */
import type { ErrorCode } from './errors.ts';

export const COMPARISON_STEPS = ['vehicle', 'use', 'drivers', 'cover', 'history'] as const;
export type ComparisonStep = (typeof COMPARISON_STEPS)[number];

export const CANTONS = [
  'AG', 'AI', 'AR', 'BE', 'BL', 'BS', 'FR', 'GE', 'GL', 'GR', 'JU', 'LU', 'NE',
  'NW', 'OW', 'SG', 'SH', 'SO', 'SZ', 'TG', 'TI', 'UR', 'VD', 'VS', 'ZG', 'ZH',
] as const; // prettier-ignore

/** A draft's status (schemas/car-comparison-drafts.schema.json, set by the server). */
export type ComparisonStatus = 'open' | 'complete' | 'compared' | 'offered';

/** The id of the car product in the fixed catalogue (server/migrations/0003). */
export const CAR_PRODUCT_ID = 7;

/** A link's lifetime: default and most days. */
export const LINK_DAYS = { default: 14, max: 60 } as const;

export interface ComparisonPerson {
  firstName?: string;
  lastName?: string;
  birthdate?: string;
  licenceDate?: string;
}

/** The draft's fields as the wizard edits them (camelCase; every part optional until its step). */
export interface ComparisonDraftFields {
  car?: {
    manufacturer?: string;
    firstRegistrationYear?: number;
    firstRegistrationMonth?: number;
    type?: string;
    detailsId?: string;
    kilometres?: number;
    extrasValuation?: number;
    purchaseYear?: number;
  };
  canton?: string;
  yearlyKm?: number;
  usage?: string;
  garageType?: string;
  driver?: {
    title?: string;
    firstName?: string;
    lastName?: string;
    birthdate?: string;
    nationality?: string;
    permit?: string;
    permitSince?: string;
    street?: string;
    postcode?: string;
    city?: string;
    licenceDate?: string;
    isMain?: boolean;
  };
  otherUsers?: ComparisonPerson[];
  under25Usage?: boolean;
  coverage?: {
    leased?: boolean;
    basic?: string;
    deductiblePartial?: number;
    deductibleFull?: number;
    garage?: boolean;
    bonusProtection?: string;
    valuableItems?: number;
    parkingExtra?: boolean;
    unlimitedDamage?: boolean;
    currentDamage?: boolean;
    passengerAccident?: boolean;
    startDate?: string;
    previousInsurer?: string;
  };
  history?: {
    cancelledContract?: boolean;
    rejectedApplication?: boolean;
    damageOrFinesOver250?: boolean;
  };
}

/** The top-level draft fields each step writes (a save of a step sends these). */
export const STEP_FIELDS: Record<ComparisonStep, readonly (keyof ComparisonDraftFields)[]> = {
  vehicle: ['car'],
  use: ['canton', 'yearlyKm', 'usage', 'garageType'],
  drivers: ['driver', 'otherUsers', 'under25Usage'],
  cover: ['coverage'],
  history: ['history'],
};

/** What a step needs filled (paths); conditional ones are in `stepProblems`. */
export const STEP_REQUIRED: Record<ComparisonStep, readonly string[]> = {
  vehicle: [
    'car.manufacturer',
    'car.firstRegistrationYear',
    'car.firstRegistrationMonth',
    'car.type',
    'car.kilometres',
  ],
  use: ['canton', 'yearlyKm', 'usage', 'garageType'],
  drivers: [
    'driver.title',
    'driver.birthdate',
    'driver.nationality',
    'driver.postcode',
    'driver.city',
    'driver.licenceDate',
    'driver.isMain',
    'under25Usage',
  ],
  cover: ['coverage.leased', 'coverage.basic', 'coverage.startDate', 'coverage.bonusProtection'],
  history: [
    'history.cancelledContract',
    'history.rejectedApplication',
    'history.damageOrFinesOver250',
  ],
};

export interface StepProblem {
  path: string;
  code: ErrorCode;
  args?: Record<string, string | number>;
}

const valueAt = (draft: ComparisonDraftFields, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (value, key) =>
        value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined,
      draft,
    );

const blank = (value: unknown) => value === undefined || value === null || value === '';

/** Whole years from `birth` (YYYY-MM-DD) to `day` (YYYY-MM-DD). */
export function yearsBetween(birth: string, day: string): number {
  const [by, bm, bd] = birth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** The day someone born on `birth` turns `years` (29 February → 1 March). */
function birthday(birth: string, years: number): string {
  const [y, m, d] = birth.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y + years, m - 1, d));
  return date.toISOString().slice(0, 10);
}

/** A driver's dates: adult, licensed at 18 or later, not in the future. */
function personProblems(
  person: ComparisonPerson | undefined,
  prefix: string,
  today: string,
): StepProblem[] {
  const problems: StepProblem[] = [];
  if (!person) return problems;
  if (person.birthdate) {
    if (person.birthdate > today)
      problems.push({ path: `${prefix}.birthdate`, code: 'notInFuture' });
    else if (yearsBetween(person.birthdate, today) < 18)
      problems.push({ path: `${prefix}.birthdate`, code: 'driverTooYoung', args: { years: 18 } });
    else if (yearsBetween(person.birthdate, today) > 110)
      problems.push({ path: `${prefix}.birthdate`, code: 'notBefore1900' });
  }
  if (person.licenceDate) {
    if (person.licenceDate > today)
      problems.push({ path: `${prefix}.licenceDate`, code: 'notInFuture' });
    else if (person.birthdate && person.licenceDate < birthday(person.birthdate, 18))
      problems.push({
        path: `${prefix}.licenceDate`,
        code: 'licenceBefore18',
        args: { years: 18 },
      });
  }
  return problems;
}

/**
 * What is wrong with a step of a draft (empty: the step may be saved as done). `today` is the
 * Swiss day (YYYY-MM-DD). Types and ranges are the JSON schema's (checked before this).
 */
export function stepProblems(
  step: ComparisonStep,
  draft: ComparisonDraftFields,
  today: string,
): StepProblem[] {
  const problems: StepProblem[] = STEP_REQUIRED[step]
    .filter((path) => blank(valueAt(draft, path)))
    .map((path) => ({ path, code: 'required' }));
  const [thisYear, thisMonth] = today.split('-').map(Number) as [number, number];
  if (step === 'vehicle') {
    const car = draft.car ?? {};
    const year = car.firstRegistrationYear;
    const future =
      year !== undefined &&
      (year > thisYear ||
        (year === thisYear &&
          car.firstRegistrationMonth !== undefined &&
          car.firstRegistrationMonth > thisMonth));
    if (future)
      problems.push({
        path: year > thisYear ? 'car.firstRegistrationYear' : 'car.firstRegistrationMonth',
        code: 'notInFuture',
      });
    else if (car.purchaseYear !== undefined) {
      if (car.purchaseYear > thisYear + 1)
        problems.push({ path: 'car.purchaseYear', code: 'maximum', args: { limit: thisYear + 1 } });
      else if (year !== undefined && car.purchaseYear < year)
        problems.push({ path: 'car.purchaseYear', code: 'notBeforeRegistration' });
    }
  }
  if (step === 'drivers') {
    problems.push(...personProblems(draft.driver, 'driver', today));
    (draft.otherUsers ?? []).forEach((person, index) => {
      problems.push(...personProblems(person, `otherUsers.${index}`, today));
      if (blank(person.birthdate))
        problems.push({ path: `otherUsers.${index}.birthdate`, code: 'required' });
      if (blank(person.licenceDate))
        problems.push({ path: `otherUsers.${index}.licenceDate`, code: 'required' });
    });
    const driver = draft.driver ?? {};
    if (driver.nationality && driver.nationality !== 'CH' && blank(driver.permit))
      problems.push({ path: 'driver.permit', code: 'permitRequired' });
    const young = [driver, ...(draft.otherUsers ?? [])].some(
      (person) =>
        person.birthdate && person.birthdate <= today && yearsBetween(person.birthdate, today) < 25,
    );
    if (young && draft.under25Usage === false)
      problems.push({ path: 'under25Usage', code: 'youngDriverNamed' });
  }
  if (step === 'cover') {
    const cover = draft.coverage ?? {};
    if (cover.leased && cover.basic && cover.basic !== 'full_casco')
      problems.push({ path: 'coverage.basic', code: 'leasedNeedsFullCasco' });
    if (cover.basic && cover.basic !== 'liability' && blank(cover.deductiblePartial))
      problems.push({ path: 'coverage.deductiblePartial', code: 'required' });
    if (cover.basic === 'full_casco' && blank(cover.deductibleFull))
      problems.push({ path: 'coverage.deductibleFull', code: 'required' });
    if (cover.bonusProtection === 'liability_full_casco' && cover.basic !== 'full_casco')
      problems.push({ path: 'coverage.bonusProtection', code: 'bonusProtectionFullCasco' });
    if (cover.startDate && cover.startDate < today)
      problems.push({ path: 'coverage.startDate', code: 'notInPast' });
  }
  return problems;
}

/** The one-line label of a draft: manufacturer type · MM/YYYY · canton. */
export function draftSummary(draft: ComparisonDraftFields): string {
  const car = draft.car ?? {};
  const parts = [
    [car.manufacturer, car.type].filter(Boolean).join(' '),
    car.firstRegistrationYear
      ? `${car.firstRegistrationMonth ? `${String(car.firstRegistrationMonth).padStart(2, '0')}/` : ''}${car.firstRegistrationYear}`
      : '',
    draft.canton ?? '',
  ].filter(Boolean);
  return parts.join(' · ');
}

/** One insurer's answer, as the adapter hands it on (CHF a year). */
export interface ComparisonQuote {
  id: string;
  insurer: string;
  /** Our company of that insurer (matched by name), when there is one: needed to make an offer. */
  companyId: number | null;
  product: string;
  annualPremium: number;
  premiums: { liability: number; partialCasco: number; fullCasco: number; addOns: number };
  deductibles: {
    partialCasco: number | null;
    fullCasco: number | null;
    youngDriver: number | null;
  };
  addOns: { code: string; included: boolean; premium: number }[];
}

export interface ComparisonResults {
  service: string;
  /** The stand-in's sample tariffs (not real prices): shown with their label. */
  sample: boolean;
  label: string | null;
  quotes: ComparisonQuote[];
}
