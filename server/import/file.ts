/**
 * The file of a CSV import (customers, leads): the multipart request (part `file` and the JSON `options`)
 * and the CSV in it. UTF-8 (with or without BOM) or Windows-1252 (Excel's "CSV" on Swiss
 * Windows), delimiter `,` `;` or tab (detected from the header line unless given), a header line,
 * at most IMPORT_MAX_ROWS rows; parsed by csv-parse. A binary file, a spreadsheet, an invalid
 * encoding, duplicate or empty column names answer 415/422 naming the file and the line.
 */
import type { FastifyRequest } from 'fastify';
import { parse } from 'csv-parse';
import { INT_MAX } from '../../src/schema/limits.ts';
import {
  ApiError,
  type ErrorCode,
  type ErrorIssue,
  issue,
  validationError,
} from '../http/errors.ts';
import { createAjvInstance, fieldErrors } from '../http/validation.ts';
import { sniffFileType } from '../customers/files.ts';
import { type DuplicateChoices, duplicateChoicesSchema } from './plan.ts';

const MB = 1024 * 1024;
export const IMPORT_MAX_BYTES = Number(process.env.IMPORT_MAX_BYTES ?? 30 * MB);
export const IMPORT_MAX_ROWS = Number(process.env.IMPORT_MAX_ROWS ?? 200_000);

export type ImportMode = 'all_or_nothing' | 'skip_invalid';

export interface ImportOptions {
  mapping?: Record<string, string | null>;
  mode?: ImportMode;
  encoding?: 'utf-8' | 'windows-1252';
  delimiter?: ',' | ';' | '\t';
  import_lead_source?: number | null;
  import_recommended_by?: string | null;
  assigned_to?: number | null;
  /** What to do with likely duplicates (./plan.ts). */
  duplicates?: DuplicateChoices;
}

export const optionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mapping: {
      type: 'object',
      maxProperties: 200,
      additionalProperties: { type: ['string', 'null'], maxLength: 100 },
    },
    mode: { type: 'string', enum: ['all_or_nothing', 'skip_invalid'] },
    encoding: { type: 'string', enum: ['utf-8', 'windows-1252'] },
    delimiter: { type: 'string', enum: [',', ';', '\t'] },
    import_lead_source: { type: ['integer', 'null'], minimum: 1, maximum: INT_MAX },
    import_recommended_by: { type: ['string', 'null'], maxLength: 200 },
    assigned_to: { type: ['integer', 'null'], minimum: 1, maximum: INT_MAX },
    duplicates: duplicateChoicesSchema,
  },
};
const validateOptions = createAjvInstance.compile(optionsSchema);

export interface ParsedFile {
  headers: string[];
  rows: Array<{ values: string[]; line: number }>;
  delimiter: string;
  encoding: string;
}

/** A refused file: the message names the field `file` too, so the import screen shows it there. */
const fileError = (status: number, message: ErrorIssue | ErrorCode) => {
  const found = typeof message === 'string' ? issue(message) : message;
  return new ApiError(status, found, { file: [found] });
};

/** Bytes → text: BOM removed, UTF-8 checked strictly (the line of the first bad byte named). */
export function decode(buffer: Buffer, encoding: 'utf-8' | 'windows-1252' = 'utf-8'): string {
  if (encoding === 'windows-1252') return new TextDecoder('windows-1252').decode(buffer);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buffer);
  } catch {
    let line = 1;
    let at = 0;
    // Find the first byte sequence that is not UTF-8, to name its line.
    while (at < buffer.length) {
      const byte = buffer[at];
      const length =
        byte < 0x80 ? 1 : byte >> 5 === 6 ? 2 : byte >> 4 === 14 ? 3 : byte >> 3 === 30 ? 4 : 0;
      const valid =
        length > 0 &&
        at + length <= buffer.length &&
        [...buffer.subarray(at + 1, at + length)].every((next) => next >> 6 === 2);
      if (!valid) break;
      if (byte === 0x0a) line++;
      at += length;
    }
    throw fileError(422, issue('csvUtf8', { line }));
  }
}

function detectDelimiter(text: string): ',' | ';' | '\t' {
  const firstLine = text.slice(0, text.search(/\r?\n/) >= 0 ? text.search(/\r?\n/) : undefined);
  const outside = firstLine.replace(/"[^"]*"/g, '');
  const counts = ([',', ';', '\t'] as const).map(
    (char) => [char, outside.split(char).length - 1] as const,
  );
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ',';
}

/** Checks the bytes are CSV text and parses them (header + rows). */
export async function parseCsv(buffer: Buffer, options: ImportOptions): Promise<ParsedFile> {
  if (buffer.length === 0) throw fileError(422, 'fileEmpty');
  const detected = await sniffFileType(buffer);
  if (detected) {
    throw fileError(415, issue('csvOtherType', { type: detected.ext.toUpperCase() }));
  }
  if (buffer.subarray(0, 8192).includes(0)) {
    throw fileError(415, 'csvNotText');
  }
  const encoding = options.encoding ?? 'utf-8';
  let text = decode(buffer, encoding);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const delimiter = options.delimiter ?? detectDelimiter(text);
  const parser = parse(text, {
    delimiter,
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    info: true,
    max_record_size: 100_000,
  });
  let headers: string[] | undefined;
  const rows: ParsedFile['rows'] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      if (!headers) {
        headers = record.map((name) => name.trim());
        continue;
      }
      if (record.every((value) => value === '')) continue;
      if (rows.length >= IMPORT_MAX_ROWS) {
        throw fileError(413, issue('csvTooManyRows', { limit: IMPORT_MAX_ROWS }));
      }
      rows.push({ values: record, line: info.lines });
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const csvError = error as { code?: string; lines?: number; message: string };
    // The parser's own explanation stays English (an argument); the line is what users act on.
    throw fileError(
      422,
      issue('csvInvalid', {
        line: csvError.lines ?? '?',
        reason: csvError.message.replace(/^Invalid Record Length: |^[A-Za-z ]+: /, ''),
      }),
    );
  }
  if (!headers || headers.length === 0) throw fileError(422, 'csvNoHeader');
  const empty = headers.findIndex((name) => name === '');
  if (empty >= 0) throw fileError(422, issue('csvUnnamedColumn', { column: empty + 1 }));
  const seen = new Map<string, number>();
  for (const [index, name] of headers.entries()) {
    const first = seen.get(name.toLowerCase());
    if (first !== undefined) {
      throw fileError(422, issue('csvSameName', { first: first + 1, second: index + 1, name }));
    }
    seen.set(name.toLowerCase(), index);
  }
  return { headers, rows, delimiter, encoding };
}

/** Reads the multipart request of a preview or an import: the CSV (part `file`) and `options`. */
export async function receiveImport(
  request: FastifyRequest,
): Promise<{ buffer: Buffer; fileName: string; options: ImportOptions }> {
  if (!request.isMultipart()) {
    throw new ApiError(415, 'multipartCsv', {
      file: [issue('required')],
    });
  }
  let buffer: Buffer | undefined;
  let fileName = '';
  let optionsText: string | undefined;
  const parts = request.parts({
    // The options may carry a choice per flagged row of a large file.
    limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, fieldSize: 8 * MB, parts: 10 },
  });
  for await (const part of parts) {
    if (part.type === 'file') {
      buffer = await part.toBuffer();
      fileName = part.filename ?? '';
      if (part.file.truncated) {
        throw fileError(413, issue('csvTooLarge', { limit: IMPORT_MAX_BYTES / MB }));
      }
    } else if (part.fieldname === 'options') optionsText = String(part.value ?? '');
  }
  if (!buffer) throw validationError({ file: [issue('required')] });
  let options: unknown = {};
  if (optionsText) {
    try {
      options = JSON.parse(optionsText);
    } catch {
      throw validationError({ options: [issue('notJson')] });
    }
  }
  if (!validateOptions(options)) {
    throw validationError(fieldErrors(validateOptions.errors ?? []), 'importOptions');
  }
  return { buffer, fileName, options: options as ImportOptions };
}
