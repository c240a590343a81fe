/**
 * The browser side of the car-insurance comparison (FS24, issue 18): the wizard's records as the
 * API answers them (camelCased), its client — the app's API client plus the customer's link token
 * (`x-comparison-token`) — and the small helpers the wizard's steps share (reading and writing a
 * draft's fields by path, the step's browser check as field messages).
 */
import { HttpError } from 'react-admin';
import {
  type ApiClientOptions,
  createApiClient,
  type ApiClient,
} from '../../dataProvider/apiClient.ts';
import {
  defaultHttpClient,
  type HttpClient,
  readStoredToken,
} from '../../dataProvider/httpClient.ts';
import { isPlainObject, toCamelDeep } from '../../schema/case.ts';
import {
  COMPARISON_STEPS,
  type ComparisonDraftFields,
  type ComparisonResults,
  type ComparisonStatus,
  type ComparisonStep,
  STEP_FIELDS,
  stepProblems,
} from '../../schema/comparison.ts';
import { encodeKeyed, errorKey } from '../../schema/errors.ts';
import type { Language } from '../../i18n/index.ts';

export const RESOURCE = 'car-comparison-drafts';
export const TOKEN_HEADER = 'x-comparison-token';

/** The wizard's steps and the results after them (the stepper's six entries). */
export const WIZARD_STEPS = [...COMPARISON_STEPS, 'results'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];
export const RESULTS_INDEX = COMPARISON_STEPS.length;

export interface DraftSummary {
  id: number;
  summary: string | null;
  status: ComparisonStatus;
  stepsDone: number;
  startedVia: 'staff' | 'link';
  updatedAt: string;
  comparedAt: string | null;
}

export interface Draft extends ComparisonDraftFields {
  id: number;
  version: number;
  customerId: number;
  summary: string | null;
  status: ComparisonStatus;
  stepsDone: number;
  startedVia: 'staff' | 'link';
  createdBy?: number | null;
  results?: Partial<ComparisonResults> | null;
  comparedAt?: string | null;
  createdAt?: string;
  updatedAt?: string;
}

export interface HouseholdAdult {
  firstName?: string;
  lastName?: string;
  birthdate?: string;
}

/** GET /api/fs24/:customerId, camelCased. */
export interface ComparisonInfo {
  access: 'staff' | 'link';
  customer: {
    id: number;
    firstName?: string | null;
    lastName?: string | null;
    organization?: string | null;
    language?: Language | null;
  };
  prefill: ComparisonDraftFields;
  household: HouseholdAdult[];
  drafts: DraftSummary[];
  comparison: { configured: boolean; sample: boolean };
  canMakeOffers: boolean;
}

/** Where screens reach the API (tests point it at their mock server). */
export const clientOptions: ApiClientOptions = {};

/** The API client of the wizard: the signed-in user's token as always, and the link's token. */
export function comparisonApi(linkToken: string | null): ApiClient {
  const base: HttpClient = clientOptions.httpClient ?? defaultHttpClient;
  const httpClient: HttpClient = (url, options = {}) => {
    const headers = new Headers(options.headers);
    if (linkToken) headers.set(TOKEN_HEADER, linkToken);
    return base(url, { ...options, headers });
  };
  return createApiClient({
    ...clientOptions,
    getToken: clientOptions.getToken ?? readStoredToken,
    httpClient,
  });
}

/** The value at a dotted path of the draft's fields (`driver.birthdate`, `otherUsers.0.birthdate`). */
export function valueAt(fields: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) =>
        value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined,
      fields,
    );
}

/** A copy of the fields with the value at `path` set (undefined removes it). */
export function setAt<T>(fields: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.');
  const container: unknown = fields;
  const isArray = Array.isArray(container);
  const copy: Record<string, unknown> | unknown[] = isArray
    ? [...(container as unknown[])]
    : { ...((container ?? {}) as Record<string, unknown>) };
  const next =
    rest.length === 0
      ? value
      : setAt(
          (copy as Record<string, unknown>)[head] ?? (/^\d+$/.test(rest[0]) ? [] : {}),
          rest.join('.'),
          value,
        );
  if (next === undefined && !isArray) delete (copy as Record<string, unknown>)[head];
  else (copy as Record<string, unknown>)[head] = next;
  return copy as T;
}

/** The fields a step sends (its top-level parts of the draft; a cleared one as null). */
export function stepBody(step: ComparisonStep, fields: ComparisonDraftFields) {
  const body: Record<string, unknown> = {};
  for (const key of STEP_FIELDS[step]) body[key] = fields[key] ?? EMPTY_PARTS[key] ?? null;
  return body;
}

/** A cleared part that is an object or a list is sent empty (the API takes null for values). */
const EMPTY_PARTS: Partial<Record<keyof ComparisonDraftFields, unknown>> = {
  car: {},
  driver: {},
  otherUsers: [],
  coverage: {},
  history: {},
};

/** Field messages (path → message in react-admin's keyed form, translated by translate()). */
export type FieldMessages = Record<string, string>;

/** The browser's check of a step, as field messages (empty: the step may be sent). */
export function stepMessages(
  step: ComparisonStep,
  fields: ComparisonDraftFields,
  today: string,
): FieldMessages {
  const messages: FieldMessages = {};
  for (const problem of stepProblems(step, fields, today)) {
    messages[problem.path] ??= encodeKeyed(
      problem.args
        ? { message: errorKey(problem.code), args: problem.args }
        : { message: errorKey(problem.code) },
    );
  }
  return messages;
}

/** The draft's fields only (what the wizard edits). */
export function fieldsOf(draft: Partial<Draft>): ComparisonDraftFields {
  const {
    car,
    canton,
    yearlyKm,
    usage,
    garageType,
    driver,
    otherUsers,
    under25Usage,
    coverage,
    history,
  } = draft;
  const fields: ComparisonDraftFields = {
    car,
    canton,
    yearlyKm,
    usage,
    garageType,
    driver,
    otherUsers,
    under25Usage,
    coverage,
    history,
  };
  // null from the database reads as "not filled in".
  return JSON.parse(
    JSON.stringify(fields, (_key, value: unknown) => (value === null ? undefined : value)),
  ) as ComparisonDraftFields;
}

/**
 * A saved draft's fields, with the customer's prefill where a part is still empty (a draft saved
 * after the vehicle step has no driver yet: the customer's data fills it in, as for a new one).
 */
export function withPrefill(
  fields: ComparisonDraftFields,
  prefill: ComparisonDraftFields,
): ComparisonDraftFields {
  const out: Record<string, unknown> = { ...fields };
  for (const [key, value] of Object.entries(prefill)) {
    const current = out[key];
    const empty =
      current === undefined || (isPlainObject(current) && Object.keys(current).length === 0);
    if (empty && value !== undefined) out[key] = value;
  }
  return out as ComparisonDraftFields;
}

/** Where the wizard opens a draft: after its saved steps, or on the results once compared. */
export function resumeIndex(draft: Pick<Draft, 'stepsDone' | 'status'>): number {
  if (draft.status === 'compared' || draft.status === 'offered') return RESULTS_INDEX;
  return Math.min(Math.max(draft.stepsDone, 0), RESULTS_INDEX);
}

/** The current draft of a 409 on a stale version (`{message, key, data: current}`), camelCased. */
export function staleDraftOf(error: unknown): Draft | undefined {
  if (!(error instanceof HttpError) || error.status !== 409) return undefined;
  const body = error.body as { data?: unknown; current?: unknown } | null;
  const current = body?.data ?? body?.current;
  if (!isPlainObject(current)) return undefined;
  const draft = toCamelDeep(current) as Draft;
  return typeof draft.id === 'number' && typeof draft.version === 'number' ? draft : undefined;
}

/** The name of the customer as the page greets them. */
export function customerLabel(customer: ComparisonInfo['customer']): string {
  const name = [customer.firstName, customer.lastName].filter(Boolean).join(' ');
  return name || customer.organization || `#${customer.id}`;
}
