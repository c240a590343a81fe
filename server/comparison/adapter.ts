/**
 * The one adapter to the external car-insurance comparison service (FS24; issue 18, DOMAIN.md §4).
 * The product never computes a price: every premium shown comes from the service's answer.
 *
 * Configuration (environment, read once when the app is built; `AppOptions.comparison` in tests):
 * - `FS24_URL`: the service's base address (https://… in production). Unset: the comparison is
 *   "not configured" — the wizard still works, compare answers 503 comparisonNotConfigured. In
 *   demo mode without FS24_URL the app starts the local stand-in (./stand-in.ts) and uses it.
 * - `FS24_TIMEOUT_MS`: how long one comparison may take (default 15,000).
 * The user's offer credentials (settings, stored encrypted: server/account/secrets.ts) sign the
 * request (HTTP Basic); for a customer's link, the credentials of the user who made the link.
 *
 * The call: `POST <FS24_URL>/quotes` with `{ request_id, draft }` (the draft's fields, camelCase,
 * as src/schema/comparison.ts names them); the answer must be `{ service?, sample?, label?,
 * quotes: [...] }` as QUOTES_ANSWER below. Anything else — a status other than 200, a body that is
 * not that JSON, premiums that do not add up — is an error with its own code (ComparisonError),
 * which the routes answer as 502/504 with the draft untouched.
 */
import { randomUUID } from 'node:crypto';
import { Ajv } from 'ajv';
import type { ComparisonDraftFields, ComparisonResults } from '../../src/schema/comparison.ts';
import type { ErrorCode, ErrorIssue } from '../../src/schema/errors.ts';
import { issue } from '../http/errors.ts';

export interface ComparisonConfig {
  /** Base address of the service; undefined: not configured. */
  url?: string;
  timeoutMs: number;
}

export const DEFAULT_TIMEOUT_MS = 15_000;

export function comparisonConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ComparisonConfig {
  const timeout = Number(env.FS24_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS);
  return {
    url: env.FS24_URL?.trim() || undefined,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS,
  };
}

/** A comparison that did not come back: the answer's status and its translated message. */
export class ComparisonError extends Error {
  readonly issue: ErrorIssue;
  constructor(
    readonly statusCode: number,
    code: ErrorCode,
    args?: Record<string, string | number>,
  ) {
    super(code);
    this.issue = issue(code, args);
  }
}

const MONEY = { type: 'number', minimum: 0, maximum: 1_000_000 } as const;
const DEDUCTIBLE = { type: ['number', 'null'], minimum: 0, maximum: 100_000 } as const;

/** What the service must answer (extra keys are ignored, missing or mistyped ones are not). */
const QUOTES_ANSWER = {
  type: 'object',
  required: ['quotes'],
  properties: {
    service: { type: 'string', maxLength: 100 },
    sample: { type: 'boolean' },
    label: { type: 'string', maxLength: 300 },
    quotes: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        required: ['id', 'insurer', 'annualPremium', 'premiums'],
        properties: {
          id: { type: 'string', minLength: 1, maxLength: 100 },
          insurer: { type: 'string', minLength: 1, maxLength: 100 },
          product: { type: 'string', maxLength: 200 },
          annualPremium: MONEY,
          premiums: {
            type: 'object',
            required: ['liability'],
            properties: {
              liability: MONEY,
              partialCasco: MONEY,
              fullCasco: MONEY,
              addOns: MONEY,
            },
          },
          deductibles: {
            type: 'object',
            properties: {
              partialCasco: DEDUCTIBLE,
              fullCasco: DEDUCTIBLE,
              youngDriver: DEDUCTIBLE,
            },
          },
          addOns: {
            type: 'array',
            maxItems: 30,
            items: {
              type: 'object',
              required: ['code', 'included'],
              properties: {
                code: { type: 'string', minLength: 1, maxLength: 50 },
                included: { type: 'boolean' },
                premium: MONEY,
              },
            },
          },
        },
      },
    },
  },
} as const;

const validateAnswer = new Ajv({ allErrors: false, strict: false }).compile(QUOTES_ANSWER);

interface RawQuote {
  id: string;
  insurer: string;
  product?: string;
  annualPremium: number;
  premiums: { liability: number; partialCasco?: number; fullCasco?: number; addOns?: number };
  deductibles?: {
    partialCasco?: number | null;
    fullCasco?: number | null;
    youngDriver?: number | null;
  };
  addOns?: { code: string; included: boolean; premium?: number }[];
}

const centimes = (value: number | undefined) => Math.round((value ?? 0) * 100);

/**
 * Reads the service's answer: its shape, and each quote's premiums adding up to its annual
 * premium (within CHF 1) — a quote whose parts do not make its total is not shown as a price.
 * Companies are matched by name afterwards (`companyId` null here).
 */
export function readAnswer(body: unknown): ComparisonResults {
  if (!validateAnswer(body)) throw new ComparisonError(502, 'comparisonMalformed');
  const answer = body as { service?: string; sample?: boolean; label?: string; quotes: RawQuote[] };
  const ids = new Set<string>();
  const quotes = answer.quotes.map((quote) => {
    const parts =
      centimes(quote.premiums.liability) +
      centimes(quote.premiums.partialCasco) +
      centimes(quote.premiums.fullCasco) +
      centimes(quote.premiums.addOns);
    if (Math.abs(parts - centimes(quote.annualPremium)) > 100 || ids.has(quote.id))
      throw new ComparisonError(502, 'comparisonMalformed');
    ids.add(quote.id);
    return {
      id: quote.id,
      insurer: quote.insurer,
      companyId: null,
      product: quote.product ?? '',
      annualPremium: quote.annualPremium,
      premiums: {
        liability: quote.premiums.liability,
        partialCasco: quote.premiums.partialCasco ?? 0,
        fullCasco: quote.premiums.fullCasco ?? 0,
        addOns: quote.premiums.addOns ?? 0,
      },
      deductibles: {
        partialCasco: quote.deductibles?.partialCasco ?? null,
        fullCasco: quote.deductibles?.fullCasco ?? null,
        youngDriver: quote.deductibles?.youngDriver ?? null,
      },
      addOns: (quote.addOns ?? []).map((addOn) => ({
        code: addOn.code,
        included: addOn.included,
        premium: addOn.premium ?? 0,
      })),
    };
  });
  return {
    service: answer.service ?? 'FS24',
    sample: answer.sample === true,
    label: answer.label ?? null,
    quotes: quotes.sort((a, b) => a.annualPremium - b.annualPremium),
  };
}

/** Asks the service for quotes on a draft; throws ComparisonError when no comparison came back. */
export async function fetchQuotes(
  config: ComparisonConfig,
  credentials: { username: string; password: string },
  draft: ComparisonDraftFields,
): Promise<ComparisonResults> {
  if (!config.url) throw new ComparisonError(503, 'comparisonNotConfigured');
  const seconds = Math.round(config.timeoutMs / 100) / 10;
  let response: Response;
  try {
    response = await fetch(
      new URL('quotes', config.url.endsWith('/') ? config.url : `${config.url}/`),
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`,
        },
        body: JSON.stringify({ request_id: randomUUID(), draft }),
        signal: AbortSignal.timeout(config.timeoutMs),
        redirect: 'error',
      },
    );
  } catch (error) {
    if ((error as Error).name === 'TimeoutError')
      throw new ComparisonError(504, 'comparisonTimeout', { seconds });
    throw new ComparisonError(502, 'comparisonUnavailable', { status: '–' });
  }
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    throw new ComparisonError(502, 'comparisonCredentialsRefused');
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new ComparisonError(502, 'comparisonUnavailable', { status: response.status });
  }
  let body: unknown;
  try {
    const text = await response.text();
    if (text.length > 2_000_000) throw new Error('too large');
    body = JSON.parse(text);
  } catch (error) {
    if ((error as Error).name === 'TimeoutError')
      throw new ComparisonError(504, 'comparisonTimeout', { seconds });
    throw new ComparisonError(502, 'comparisonMalformed');
  }
  return readAnswer(body);
}
