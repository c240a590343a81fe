/**
 * Contract exports (issue 14), streamed:
 * - `GET /api/contracts/export` (contract-simple-export: ADMIN, BACKOFFICE,
 *   BACKOFFICE-CALLCENTER by role) — the current list as CSV: the same query parameters as
 *   `GET /api/contracts` (filters and their `_gte`/`_lte`/`_null` forms, search, assignment,
 *   work_location, sort and order), without paging;
 * - `GET /api/contracts/report?format=csv|xlsx` (contract-export-page: ADMIN, BACKOFFICE) — the
 *   export page: the same parameters (the date ranges are the list's `signing_date_gte` …
 *   `end_date_lte`), as CSV or XLSX (exceljs's streaming writer).
 * Both apply the contracts' record scope (visible exactly when the customer is) and the list's own
 * conditions and search places from the contracts' hooks (./hooks.ts). One row per contract;
 * headers are the fields' labels in the user's language, values readable (customer and insured
 * person by name, product, sub-product, insurer and consultant names, enum labels, CHF amounts,
 * dates `dd.mm.yyyy` in CSV and real dates in XLSX, timestamps Swiss local time). Rows are read in
 * batches of 1000 in the list's order, which ends with the id (by keys from the last row when the
 * sort column is never null, else by offset), and names of the rows' customers and members per
 * batch, so memory stays flat. A sort by a reference column sorts by its
 * stored id here (the list sorts by the label).
 */
import { PassThrough, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type SqlBool, sql } from 'kysely';
import type { JsonSchema } from '../../src/schema/model.ts';
import { recordScope } from '../access/scope.ts';
import { filterConditions, type ListQuery, listQuerySchema } from '../crud/list.ts';
import { modelOf } from '../customers/access.ts';
import { exportDate, exportTimestamp } from '../customers/export.ts';
import {
  enumLabel,
  fieldLabel,
  type Language,
  LANGUAGES,
  languageOf,
  lookup,
} from '../customers/labels.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { swissToday } from './coverage.ts';

const BATCH = 1000;
/** Columns of contracts that are never null: a sort by one of them pages by keys. */
const NOT_NULL_COLUMNS = new Set(['id', 'created_at', 'updated_at', 'customer_id', 'product_id']);

type ExportQuery = ListQuery & {
  format?: 'csv' | 'xlsx';
  delimiter?: 'semicolon' | 'comma';
  language?: Language;
};

/** A value as the export shows it: text, a CHF amount, a number, a date or a timestamp. */
type Value =
  | { kind: 'text'; value: string }
  | { kind: 'chf' | 'number'; value: number }
  | { kind: 'date'; value: string }
  | null;

interface Names {
  companies: Map<number, string>;
  users: Map<number, string>;
  products: Map<number, string>;
  subProducts: Map<number, string>;
  variants: Map<number, string>;
  customers: Map<number, string>;
  members: Map<number, string>;
}

interface Column {
  /** Label key under resources.contracts.fields (dotted for nested fields). */
  label: string;
  width: number;
  value(row: ResourceRow, names: Names, language: Language, yesNo: [string, string]): Value;
}

const text = (value: unknown): Value =>
  value === null || value === undefined || value === ''
    ? null
    : { kind: 'text', value: String(value) };
const chf = (value: unknown): Value =>
  value === null || value === undefined || value === ''
    ? null
    : { kind: 'chf', value: Number(value) };
const date = (value: unknown): Value => {
  if (value === null || value === undefined) return null;
  const day = value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
  return { kind: 'date', value: day };
};
const json = <T>(value: unknown): T =>
  (typeof value === 'string' ? JSON.parse(value) : (value ?? {})) as T;
const named = (map: Map<number, string>, id: unknown): Value =>
  id === null || id === undefined ? null : text(map.get(Number(id)) ?? String(id));
const enumValue =
  (column: string, enumName: string): Column['value'] =>
  (row, _names, language) =>
    row[column] === null || row[column] === undefined
      ? null
      : text(enumLabel(language, enumName, String(row[column])));
const yesNo =
  (column: string): Column['value'] =>
  (row, _names, _language, [yes, no]) =>
    row[column] === null || row[column] === undefined ? null : text(row[column] ? yes : no);

/** The columns, in the order of the contract form's sections. */
const COLUMNS: Column[] = [
  { label: 'id', width: 8, value: (row) => ({ kind: 'number', value: Number(row.id) }) },
  { label: 'contractType', width: 14, value: enumValue('contract_type', 'contractType') },
  { label: 'contractNumber', width: 16, value: (row) => text(row.contract_number) },
  { label: 'altContractNumber', width: 16, value: (row) => text(row.alt_contract_number) },
  {
    label: 'customerId',
    width: 24,
    value: (row, names) => named(names.customers, row.customer_id),
  },
  {
    label: 'householdMemberId',
    width: 22,
    value: (row, names) => named(names.members, row.household_member_id),
  },
  { label: 'category', width: 12, value: enumValue('category', 'contractCategory') },
  { label: 'businessName', width: 20, value: (row) => text(row.business_name) },
  { label: 'productGroup', width: 16, value: enumValue('product_group', 'productGroup') },
  { label: 'productId', width: 22, value: (row, names) => named(names.products, row.product_id) },
  {
    label: 'insurance.subProductId',
    width: 20,
    value: (row, names) =>
      named(names.subProducts, json<{ sub_product_id?: number }>(row.insurance).sub_product_id),
  },
  {
    label: 'insurance.subProductVariantId',
    width: 20,
    value: (row, names) =>
      named(
        names.variants,
        json<{ sub_product_variant_id?: number }>(row.insurance).sub_product_variant_id,
      ),
  },
  {
    label: 'insurance.deductible',
    width: 12,
    value: (row) => chf(json<{ deductible?: number }>(row.insurance).deductible),
  },
  {
    label: 'insurance.premium',
    width: 12,
    value: (row) => chf(json<{ premium?: number }>(row.insurance).premium),
  },
  {
    label: 'supplementaryInsurances',
    width: 30,
    value: (row, names) =>
      text(
        json<Array<{ sub_product_id: number; premium_month?: number }>>(
          row.supplementary_insurances ?? '[]',
        )
          .map(
            (line) =>
              `${names.subProducts.get(line.sub_product_id) ?? line.sub_product_id}` +
              (line.premium_month === undefined ? '' : ` ${line.premium_month.toFixed(2)}`),
          )
          .join('; '),
      ),
  },
  {
    label: 'coverage.amount',
    width: 14,
    value: (row) => chf(json<{ amount?: number }>(row.coverage).amount),
  },
  {
    label: 'coverage.interestRate',
    width: 10,
    value: (row) => {
      const rate = json<{ interest_rate?: number }>(row.coverage).interest_rate;
      return rate === undefined ? null : { kind: 'number', value: rate };
    },
  },
  { label: 'companyId', width: 22, value: (row, names) => named(names.companies, row.company_id) },
  { label: 'status', width: 12, value: enumValue('status', 'contractStatus') },
  {
    label: 'consultantId',
    width: 20,
    value: (row, names) => named(names.users, row.consultant_id),
  },
  { label: 'brokerMandate', width: 10, value: yesNo('broker_mandate') },
  { label: 'isPrecrmClosure', width: 10, value: yesNo('is_precrm_closure') },
  { label: 'paymentCycle', width: 14, value: enumValue('payment_cycle', 'paymentCycle') },
  { label: 'signingDate', width: 12, value: (row) => date(row.signing_date) },
  { label: 'startDate', width: 12, value: (row) => date(row.start_date) },
  { label: 'endDate', width: 12, value: (row) => date(row.end_date) },
  { label: 'annualPremium', width: 14, value: (row) => chf(row.annual_premium) },
  { label: 'productionSum', width: 14, value: (row) => chf(row.production_sum) },
  { label: 'totalCommission', width: 14, value: (row) => chf(row.total_commission) },
  { label: 'reason', width: 18, value: enumValue('reason', 'nonClosureReason') },
  { label: 'protocolMissing', width: 10, value: yesNo('protocol_missing') },
  { label: 'note', width: 30, value: (row) => text(row.note) },
  {
    label: 'createdAt',
    width: 22,
    value: (row) =>
      row.created_at ? text(exportTimestamp(row.created_at as Date | string)) : null,
  },
];

/** The query of both exports: the list's parameters without paging, plus the format. */
function exportQuerySchema(app: FastifyInstance, formats: string[]): JsonSchema {
  const list = listQuerySchema(modelOf(app, 'contracts'));
  const { page: _page, per_page: _perPage, ...properties } = list.properties ?? {};
  return {
    ...list,
    properties: {
      ...properties,
      ...(app.resourceHooks.of('contracts').listParameters ?? {}),
      format: { type: 'string', enum: formats, default: 'csv' },
      delimiter: { type: 'string', enum: ['semicolon', 'comma'] },
      language: {
        type: 'string',
        enum: [...LANGUAGES],
        description: "Headers and values in this language (default: the user's).",
      },
    },
  };
}

/** 'contracts-2026-11-22.csv', the export's date in Switzerland. */
export const contractFileName = (format: 'csv' | 'xlsx', now = new Date()) =>
  `contracts-${swissToday(now)}.${format}`;

/** The rows of the export in batches (each batch: the values of its rows). */
async function* exportRows(
  app: FastifyInstance,
  request: FastifyRequest,
  query: ExportQuery,
  language: Language,
): AsyncGenerator<Value[][]> {
  const model = modelOf(app, 'contracts');
  const hooks = app.resourceHooks.of('contracts');
  const context = { db: app.db, model, models: app.models, principal: request.principal };
  const scope = recordScope(app.resourceHooks, context);
  const extras = {
    conditions: hooks.listConditions?.(query, context),
    searchAlso: hooks.searchAlso,
  };
  const yes = lookup(language, 'app.customers.export.yes') ?? 'yes';
  const no = lookup(language, 'app.customers.export.no') ?? 'no';
  const nameColumn = `name_${language}` as const;
  const names: Names = {
    companies: new Map(),
    users: new Map(),
    products: new Map(),
    subProducts: new Map(),
    variants: new Map(),
    customers: new Map(),
    members: new Map(),
  };
  // Reference data, loaded once (small tables).
  for (const row of await app.db.selectFrom('companies').selectAll().execute()) {
    names.companies.set(Number(row.id), String(row[nameColumn] || row.name_de));
  }
  for (const row of await app.db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name'])
    .execute()) {
    names.users.set(Number(row.id), `${row.first_name} ${row.last_name}`);
  }
  for (const row of await app.db.selectFrom('products').select(['id', 'key']).execute()) {
    names.products.set(Number(row.id), lookup(language, `products.${row.key}`) ?? row.key);
  }
  for (const row of await app.db.selectFrom('sub_products').selectAll().execute()) {
    names.subProducts.set(Number(row.id), String(row[nameColumn] || row.name_de));
  }
  for (const row of await app.db.selectFrom('sub_product_variants').selectAll().execute()) {
    names.variants.set(Number(row.id), String(row[nameColumn] || row.name_de));
  }

  const sortable = new Set(model.fields.filter((field) => field.sortable).map((f) => f.column));
  const defaultSort = model.schema['x-resource']?.defaultSort;
  const defaultColumn = model.fields.find((field) => field.name === defaultSort?.field)?.column;
  const column = query.sort && sortable.has(query.sort) ? query.sort : (defaultColumn ?? 'id');
  const direction = (
    query.order ?? (query.sort ? 'asc' : (defaultSort?.order ?? 'asc'))
  ).toLowerCase() as 'asc' | 'desc';

  // A sort column that is never null pages by its keys (from the last row on, on the sort's index);
  // another one (which may hold nulls) by offset.
  const keyset = NOT_NULL_COLUMNS.has(column);
  let last: ResourceRow | undefined;
  for (let offset = 0; ; offset += BATCH) {
    const after = last;
    const rows = await resourceDb(app.db)
      .selectFrom(model.table)
      .selectAll()
      // The sort key as the database's text: a timestamp keeps its microseconds (a Date would not).
      .select(sql<string>`${sql.ref(column)}::text`.as('gscrm_sort_key'))
      .where((eb) => {
        const conditions = [...filterConditions(model, query, eb, extras), scope(eb)];
        if (keyset && after) {
          conditions.push(
            sql<SqlBool>`(${sql.ref(column)}, ${sql.ref('id')}) ${sql.raw(direction === 'desc' ? '<' : '>')} (${after.gscrm_sort_key}, ${after.id})`,
          );
        }
        return eb.and(conditions);
      })
      .orderBy(sql.ref(column), direction)
      .orderBy(sql.ref('id'), direction)
      .limit(BATCH)
      .offset(keyset ? 0 : offset)
      .execute();
    last = rows[rows.length - 1];
    const customerIds = [...new Set(rows.map((row) => Number(row.customer_id)))];
    const memberIds = [
      ...new Set(
        rows.filter((row) => row.household_member_id).map((row) => Number(row.household_member_id)),
      ),
    ];
    if (customerIds.length > 0) {
      for (const row of await app.db
        .selectFrom('customers')
        .select(['id', 'first_name', 'last_name', 'organization', 'is_company'])
        .where('id', 'in', customerIds)
        .execute()) {
        names.customers.set(
          Number(row.id),
          row.is_company && row.organization
            ? row.organization
            : `${row.first_name} ${row.last_name}`,
        );
      }
    }
    if (memberIds.length > 0) {
      for (const row of await app.db
        .selectFrom('household_members')
        .select(['id', 'first_name', 'last_name'])
        .where('id', 'in', memberIds)
        .execute()) {
        names.members.set(Number(row.id), `${row.first_name} ${row.last_name}`);
      }
    }
    yield rows.map((row) => COLUMNS.map((c) => c.value(row, names, language, [yes, no])));
    if (rows.length < BATCH) return;
    // Names of one batch are not needed by the next: memory stays flat.
    names.customers.clear();
    names.members.clear();
  }
}

const csvText = (value: Value): string => {
  if (value === null) return '';
  switch (value.kind) {
    case 'chf':
      return value.value.toFixed(2);
    case 'number':
      return String(value.value);
    case 'date':
      return exportDate(value.value);
    default:
      return value.value;
  }
};

function exportStream(app: FastifyInstance, request: FastifyRequest, query: ExportQuery): Readable {
  const language = query.language ?? languageOf(request.principal?.language);
  const header = COLUMNS.map((column) => fieldLabel(language, 'contracts', column.label));
  const rows = exportRows(app, request, query, language);
  if (query.format === 'xlsx') {
    return xlsxStream(
      lookup(language, 'resources.contracts.name_other') ?? 'Contracts',
      header,
      rows,
    );
  }
  async function* lines(): AsyncGenerator<string[]> {
    yield header;
    for await (const batch of rows) for (const values of batch) yield values.map(csvText);
  }
  const csv = stringify({
    delimiter: query.delimiter === 'comma' ? ',' : ';',
    bom: true,
    record_delimiter: 'windows',
  });
  const source = Readable.from(lines());
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}

/** Number formats of the XLSX cells: dates as Excel dates, CHF with two decimals. */
const XLSX_FORMATS = { date: 'dd.mm.yyyy', chf: '#,##0.00' } as const;

/**
 * The workbook through exceljs's streaming writer: rows are committed as they come (nothing kept),
 * the header bold and frozen; dates are real date cells, CHF amounts numbers with two decimals.
 */
function xlsxStream(
  sheetName: string,
  header: string[],
  rows: AsyncGenerator<Value[][]>,
): Readable {
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = COLUMNS.map((column, at) => ({ header: header[at], width: column.width }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const write = async () => {
    for await (const batch of rows) {
      for (const values of batch) {
        const row = sheet.addRow(
          values.map((value) => {
            if (value === null) return null;
            if (value.kind === 'date') return new Date(`${value.value}T00:00:00Z`);
            return value.value;
          }),
        );
        values.forEach((value, at) => {
          if (value?.kind === 'date' || value?.kind === 'chf') {
            row.getCell(at + 1).numFmt = XLSX_FORMATS[value.kind];
          }
        });
        row.commit();
      }
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => stream.destroy(error as Error));
  return stream;
}

const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export async function contractExportRoutes(app: FastifyInstance): Promise<void> {
  const routes = [
    {
      url: '/api/contracts/export',
      access: 'contract-simple-export',
      formats: ['csv'],
      summary:
        'The current contracts list as CSV (UTF-8 with BOM, `;`), streamed: the same parameters as GET /api/contracts (filters, search, assignment, work_location, sort), without paging; only the contracts the user sees.',
    },
    {
      url: '/api/contracts/report',
      access: 'contract-export-page',
      formats: ['csv', 'xlsx'],
      summary:
        "The contract export page's file, CSV or XLSX, streamed: the list's parameters (date ranges as signing_date_gte … end_date_lte); only the contracts the user sees.",
    },
  ] as const;
  for (const route of routes) {
    app.get<{ Querystring: ExportQuery }>(
      route.url,
      {
        config: { access: route.access },
        schema: {
          tags: ['contracts'],
          summary: route.summary,
          querystring: exportQuerySchema(app, [...route.formats]),
        },
      },
      async (request, reply) => {
        const format = request.query.format ?? 'csv';
        reply
          .header('content-type', CONTENT_TYPES[format])
          .header('content-disposition', `attachment; filename="${contractFileName(format)}"`)
          .header('cache-control', 'private, no-store');
        return reply.send(exportStream(app, request, request.query));
      },
    );
  }
}
