/**
 * Client report export (spec §3 "report filters": from, until, lead sources) as CSV, streamed:
 * customers are read in keyset batches (by id) and written through csv-stringify as the client
 * reads, so 100,000 customers export with flat memory. Rows are those the user may see (the same
 * visibility as the list). Headers and values are in the user's language; the file is UTF-8 with a
 * BOM and `;` between fields, as Excel on Swiss machines expects. XLSX is not offered: exceljs, the
 * library the issue named, cannot be installed from the registry here (see the final note).
 */
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

const BATCH = 1000;

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

export function exportFileName(now = new Date()): string {
  return `customers-${now.toISOString().slice(0, 10)}.csv`;
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
        return (value instanceof Date ? value : new Date(String(value))).toISOString();
      case 'date':
        return dateText(value) ?? '';
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

/** Midnight in Switzerland of a date (plus `days`), as a timestamp for created_at. */
function startOfDay(date: string, days = 0): Date {
  const [year, month, day] = date.split('-').map(Number);
  const utc = new Date(Date.UTC(year, month - 1, day + days));
  // Europe/Zurich is UTC+1 or +2; find the offset of that day.
  const offset = zurichOffsetMinutes(utc);
  return new Date(utc.getTime() - offset * 60_000);
}

function zurichOffsetMinutes(at: Date): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Zurich',
    timeZoneName: 'shortOffset',
  }).formatToParts(at);
  const name = parts.find((part) => part.type === 'timeZoneName')?.value ?? 'GMT+1';
  const match = /GMT([+-]\d+)(?::(\d+))?/.exec(name);
  return match ? Number(match[1]) * 60 + Math.sign(Number(match[1])) * Number(match[2] ?? 0) : 60;
}
