/**
 * Client report export (spec §3 "report filters": from, until, lead sources) as CSV, streamed:
 * customers are read in keyset batches (by id) and written through csv-stringify as the client
 * reads, so 100,000 customers export with flat memory. Rows are those the user may see (the same
 * visibility as the list). Headers and values are in the user's language; the file is UTF-8 with a
 * BOM and `;` between fields, as Excel on Swiss machines expects. XLSX is not offered: exceljs, the
 * library the issue named, cannot be installed from the registry here (see the final note).
 *
 * Times are Swiss local time (Europe/Zurich), whatever the server's time zone:
 *   - a timestamp (created, updated) as ISO 8601 with its offset, `2026-11-22T17:11:22+01:00`:
 *     the wall-clock time a Swiss user saw, and still one exact instant for any program;
 *   - a date (birth date, partnership date) as `dd.mm.yyyy`, `23.03.1967`: what Excel on a Swiss
 *     machine reads as a date, and what the customer import reads back (server/customers/import.ts);
 *   - the file's name carries the Swiss date of the export.
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FieldModel } from '../../src/schema/model.ts';
import { ID_SCHEMA } from '../../src/schema/limits.ts';
import { scopeExpression } from '../access/scope.ts';
import type { ResourceRow } from '../db/resource.ts';
import { modelOf, scopeFor } from './access.ts';
import { enumLabel, fieldLabel, type Language, languageOf, lookup } from './labels.ts';
import { dateText } from './rules.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

const BATCH = 1000;
/** The business's time zone: every time in an export is Swiss local time. */
export const EXPORT_TIME_ZONE = 'Europe/Zurich';

/** A timestamp as Swiss local time, ISO 8601 with the offset: '2026-11-22T17:11:22+01:00'. */
export function exportTimestamp(value: Date | string): string {
  return dayjs(value).tz(EXPORT_TIME_ZONE).format('YYYY-MM-DDTHH:mm:ssZ');
}

/** A calendar date ('YYYY-MM-DD' or a Date at UTC midnight) as 'dd.mm.yyyy': '23.03.1967'. */
export function exportDate(value: unknown): string {
  const text = dateText(value);
  const match = text ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(text) : null;
  return match ? `${match[3]}.${match[2]}.${match[1]}` : (text ?? '');
}

export interface ExportQuery {
  from?: string;
  until?: string;
  lead_source?: number[];
  delimiter?: 'semicolon' | 'comma';
}

export const exportQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: { type: 'string', format: 'date' },
    until: { type: 'string', format: 'date' },
    lead_source: {
      type: 'array',
      maxItems: 100,
      items: ID_SCHEMA,
    },
    delimiter: { type: 'string', enum: ['semicolon', 'comma'] },
  },
};

/** Columns of the report: every customer field but the avatar, in schema order. */
function reportFields(app: FastifyInstance): FieldModel[] {
  return modelOf(app, 'customers').fields.filter((field) => field.name !== 'avatar');
}

/** 'customers-2026-11-22.csv', the export's date in Switzerland. */
export function exportFileName(now = new Date()): string {
  return `customers-${dayjs(now).tz(EXPORT_TIME_ZONE).format('YYYY-MM-DD')}.csv`;
}

/** The CSV as a stream (header line first). */
export function exportCustomers(
  app: FastifyInstance,
  request: FastifyRequest,
  query: ExportQuery,
): Readable {
  const language: Language = languageOf(request.principal?.language);
  const fields = reportFields(app);
  const scope = scopeExpression(scopeFor(app, 'customers', request.principal));
  const yes = lookup(language, 'app.customers.export.yes') ?? 'yes';
  const no = lookup(language, 'app.customers.export.no') ?? 'no';
  // Names of referenced records, loaded once (small tables).
  const names = {
    leadSources: new Map<number, string>(),
    users: new Map<number, string>(),
    subBrokers: new Map<number, string>(),
  };

  async function* rows(): AsyncGenerator<string[]> {
    for (const row of await app.db.selectFrom('lead_sources').selectAll().execute()) {
      names.leadSources.set(Number(row.id), String(row[`name_${language}`] || row.name_de));
    }
    for (const row of await app.db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name', 'email'])
      .execute()) {
      names.users.set(Number(row.id), `${row.first_name} ${row.last_name} <${row.email}>`);
    }
    for (const row of await app.db.selectFrom('sub_brokers').select(['id', 'name']).execute()) {
      names.subBrokers.set(Number(row.id), String(row.name));
    }
    yield fields.map((field) => fieldLabel(language, 'customers', field.name));
    let after = 0;
    for (;;) {
      let batch = app.db
        .selectFrom('customers')
        .selectAll()
        .where('id', '>', after)
        .where(scope)
        .orderBy('id')
        .limit(BATCH);
      if (query.from) batch = batch.where('created_at', '>=', startOfDay(query.from));
      if (query.until) batch = batch.where('created_at', '<', startOfDay(query.until, 1));
      if (query.lead_source?.length) batch = batch.where('lead_source', 'in', query.lead_source);
      const found = await batch.execute();
      for (const row of found) yield fields.map((field) => cell(field, row));
      if (found.length < BATCH) return;
      after = Number(found[found.length - 1].id);
    }
  }

  function cell(field: FieldModel, row: ResourceRow): string {
    const value = row[field.column];
    if (value === null || value === undefined) return '';
    switch (field.kind) {
      case 'boolean':
        return value ? yes : no;
      case 'datetime':
        return exportTimestamp(value instanceof Date ? value : String(value));
      case 'date':
        return exportDate(value);
      case 'enum':
        return enumLabel(language, field.enumName ?? '', String(value));
      case 'enumArray':
        return (value as string[])
          .map((item) => enumLabel(language, field.enumName ?? '', item))
          .join(', ');
      case 'reference': {
        const id = Number(value);
        if (field.reference === 'lead-sources') return names.leadSources.get(id) ?? String(id);
        if (field.reference === 'users') return names.users.get(id) ?? String(id);
        if (field.reference === 'sub-brokers') return names.subBrokers.get(id) ?? String(id);
        return String(id);
      }
      default:
        return String(value);
    }
  }

  const csv = stringify({
    delimiter: query.delimiter === 'comma' ? ',' : ';',
    bom: true,
    record_delimiter: 'windows',
  });
  const source = Readable.from(rows());
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}

/** Midnight in Switzerland of a date (plus `days`), as the instant to compare created_at with. */
export function startOfDay(date: string, days = 0): Date {
  // The day is counted first, then placed in Zurich: adding to a zoned time would keep its offset
  // across a change to or from summer time.
  const day = dayjs(date).add(days, 'day').format('YYYY-MM-DD');
  return dayjs.tz(day, EXPORT_TIME_ZONE).toDate();
}
