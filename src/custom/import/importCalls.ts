/**
 * The CSV import's calls on the web app's one API client: the check (POST
 * <resource>/import/preview, writes nothing) and the import (POST <resource>/import, answered as
 * NDJSON progress lines, then the summary), their answers, and a failure as the screen shows it.
 */
import { HttpError } from 'react-admin';
import { api, errorDetails, messageOf } from '../../dataProvider/apiClient.ts';
import { toCamelDeep } from '../../schema/case.ts';
import type { ImportResource } from './config.ts';

export interface RowError {
  row: number;
  line: number;
  column: string | null;
  field: string | null;
  /** English, for API clients. */
  message: string;
  /** The translation key of the message (`app.errors.<code>`) and its arguments. */
  key?: string;
  args?: Record<string, string | number>;
}

/**
 * Why a row looks like a record (app.customers.duplicates.reasons): customers by the create form's
 * rule, leads by e-mail or phone.
 */
export type DuplicateReason = 'name_and_birth_date' | 'email' | 'phone' | 'organization';

/** An existing record (a customer, an open lead) a row of the file looks like. */
export interface ExistingMatch {
  id: number;
  isCompany: boolean | null;
  organization: string | null;
  firstName: string | null;
  lastName: string | null;
  /** Customers only. */
  dateOfBirth?: string | null;
  email: string | null;
  phoneNumber: string | null;
  zip: string | null;
  city: string | null;
  reasons: DuplicateReason[];
}

/** A valid row that looks like existing records or an earlier row of the same file. */
export interface FlaggedRow {
  row: number;
  line: number;
  /** The row's compared values (firstName, lastName, dateOfBirth, email, phoneNumber, organization). */
  values: Record<string, unknown>;
  matches: ExistingMatch[];
  fileRows: Array<{ row: number; reasons: DuplicateReason[] }>;
}

export type DuplicateAction = 'skip' | 'import' | 'merge';

/** The user's choice for one flagged row; `into` is the customer a merge fills. */
export interface DuplicateChoice {
  action: DuplicateAction;
  into?: number;
}

export interface Preview {
  columns: string[];
  delimiter: string;
  encoding: string;
  /** The fields a column may fill (camelCase). */
  fields: string[];
  /** CSV column → field (camelCase) or null (ignored). */
  mapping: Record<string, string | null>;
  totalRows: number;
  validRows: number;
  invalidRows: number;
  rowErrors: RowError[];
  preview: Array<{ row: number; line: number; values: Record<string, unknown>; valid: boolean }>;
  /** Number of valid rows that look like duplicates. */
  duplicateRows: number;
  /** The flagged rows (the first 1000). */
  duplicates: FlaggedRow[];
}

/** A row merged into an existing customer: the fields it filled, those the customer kept. */
export interface MergeReport {
  row: number;
  customerId: number;
  filled: string[];
  conflicts: Array<{ field: string; kept: unknown; file: unknown }>;
}

export interface Summary {
  totalRows: number;
  imported: number;
  /** Rows merged into existing customers. */
  merged: number;
  /** Rows not written: invalid ones, duplicates skipped and duplicates without a choice. */
  skipped: number;
  skippedDuplicates: number;
  unresolvedDuplicates: number;
  rowErrors: RowError[];
  merges: MergeReport[];
}

export type ImportMode = 'all_or_nothing' | 'skip_invalid';
export type Encoding = 'utf-8' | 'windows-1252';

/** The `options` part as the server reads it (snake_case; the mapping's keys are column names). */
export interface ImportOptions {
  encoding: Encoding;
  mapping?: Record<string, string | null>;
  mode: ImportMode;
  import_lead_source: number | null;
  import_recommended_by: string | null;
  assigned_to: number | null;
  /** Choices for flagged rows: per row (by row number), and for all flagged rows without one. */
  duplicates?: { all?: DuplicateAction; rows: Record<string, DuplicateChoice> };
}

/** What the screen shows of a failed check or import. */
export interface ImportFailure {
  message: string;
  details: string[];
  rowErrors: RowError[];
}

export interface ImportProgress {
  phase: string;
  done: number;
  total: number;
}

function formOf(file: File, options: ImportOptions): FormData {
  const form = new FormData();
  // Built by hand, not key-converted: column names are data.
  form.append('options', JSON.stringify(options));
  form.append('file', file);
  return form;
}

/** Checks the file: columns, suggested or given mapping, counts and row errors. */
export async function previewImport(
  resource: ImportResource,
  file: File,
  options: ImportOptions,
  onUpload: (fraction: number) => void,
): Promise<Preview> {
  const raw = await api.upload<Preview>(`${resource}/import/preview`, formOf(file, options), {
    onUpload,
    raw: true,
  });
  // Column names are data: the mapping keeps its keys as sent.
  return { ...(toCamelDeep(raw) as Preview), mapping: raw.mapping };
}

/** Imports the file; `onProgress` follows the server's phases. Undefined: the answer had no summary. */
export async function runImport(
  resource: ImportResource,
  file: File,
  options: ImportOptions,
  onUpload: (fraction: number) => void,
  onProgress: (progress: ImportProgress) => void,
): Promise<Summary | undefined> {
  const last = await api.stream(`${resource}/import`, formOf(file, options), {
    onUpload,
    onLine: (line) => {
      if (line.type !== 'progress') return;
      onProgress({
        phase: String(line.phase),
        done: Number(line.done),
        total: Number(line.total) || 1,
      });
    },
  });
  return last?.type === 'summary' ? (last as unknown as Summary) : undefined;
}

/** A failed call as the screen shows it; `translate` (react-admin's) reads the server's keys. */
export function importFailure(
  error: unknown,
  translate: (key: string, options?: Record<string, unknown>) => string,
): ImportFailure {
  const body =
    error instanceof HttpError ? (error.body as { row_errors?: RowError[] } | null) : null;
  return {
    message: messageOf(error),
    details: errorDetails(error, translate),
    rowErrors: body?.row_errors ?? [],
  };
}
