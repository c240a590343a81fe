/**
 * The CSV import's calls on the web app's one API client: the check (POST customers/import/preview,
 * writes nothing) and the import (POST customers/import, answered as NDJSON progress lines, then the
 * summary), their answers, and a failure as the screen shows it.
 */
import { HttpError } from 'react-admin';
import { api, errorDetails, messageOf } from '../../dataProvider/apiClient.ts';
import { toCamelDeep } from '../../schema/case.ts';

export interface RowError {
  row: number;
  line: number;
  column: string | null;
  field: string | null;
  message: string;
}

export interface Preview {
  columns: string[];
  delimiter: string;
  encoding: string;
  /** CSV column → customer field (camelCase) or null (ignored). */
  mapping: Record<string, string | null>;
  totalRows: number;
  validRows: number;
  invalidRows: number;
  rowErrors: RowError[];
  preview: Array<{ row: number; line: number; values: Record<string, unknown>; valid: boolean }>;
}

export interface Summary {
  totalRows: number;
  imported: number;
  skipped: number;
  rowErrors: RowError[];
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
  file: File,
  options: ImportOptions,
  onUpload: (fraction: number) => void,
): Promise<Preview> {
  const raw = await api.upload<Preview>('customers/import/preview', formOf(file, options), {
    onUpload,
    raw: true,
  });
  // Column names are data: the mapping keeps its keys as sent.
  return { ...(toCamelDeep(raw) as Preview), mapping: raw.mapping };
}

/** Imports the file; `onProgress` follows the server's phases. Undefined: the answer had no summary. */
export async function runImport(
  file: File,
  options: ImportOptions,
  onUpload: (fraction: number) => void,
  onProgress: (progress: ImportProgress) => void,
): Promise<Summary | undefined> {
  const last = await api.stream('customers/import', formOf(file, options), {
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

export function importFailure(error: unknown): ImportFailure {
  const body =
    error instanceof HttpError ? (error.body as { row_errors?: RowError[] } | null) : null;
  return {
    message: messageOf(error),
    details: errorDetails(error),
    rowErrors: body?.row_errors ?? [],
  };
}
