/**
 * A month's payouts as a file for the accounting (issue 17), in one language (headers, statuses,
 * kinds, the explanations):
 * - CSV (UTF-8 with BOM, `;`, CRLF, as the other exports): the payouts — one line each, then a
 *   totals line — an empty line, and then the lines of those payouts, one each;
 * - XLSX (exceljs): a sheet of payouts (with the totals row) and a sheet of lines, bold frozen
 *   headers, CHF with two decimals, days as dates.
 * Amounts are CHF with two decimals (the ledger's centimes / 100), days YYYY-MM-DD in the CSV
 * (Swiss days). A month has one payout per user: the file is built in memory.
 */
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { swissToday } from '../../src/schema/swiss-time.ts';
import type { Language } from '../customers/labels.ts';
import type { DB } from '../db/index.ts';
import { explainTexts, label, personName } from './payout-texts.ts';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

type Value = string | number | Date | null;

interface Column {
  key: string;
  width: number;
  kind?: 'chf' | 'date' | 'number';
}

const PAYOUT_COLUMNS: Column[] = [
  { key: 'payout', width: 10, kind: 'number' },
  { key: 'person', width: 24 },
  { key: 'email', width: 28 },
  { key: 'period', width: 10 },
  { key: 'status', width: 14 },
  { key: 'lineCount', width: 10, kind: 'number' },
  { key: 'total', width: 14, kind: 'chf' },
  { key: 'approvedAt', width: 14, kind: 'date' },
  { key: 'paidAt', width: 14, kind: 'date' },
  { key: 'note', width: 30 },
];

const LINE_COLUMNS: Column[] = [
  { key: 'payout', width: 10, kind: 'number' },
  { key: 'person', width: 24 },
  { key: 'line', width: 10, kind: 'number' },
  { key: 'date', width: 12, kind: 'date' },
  { key: 'period', width: 10 },
  { key: 'kind', width: 16 },
  { key: 'contract', width: 16 },
  { key: 'customer', width: 24 },
  { key: 'explain', width: 60 },
  { key: 'amount', width: 14, kind: 'chf' },
];

interface Table {
  columns: Column[];
  rows: Value[][];
  totals?: Value[];
}

const swissDay = (value: unknown): Date | null => {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date;
};

/** The month's payouts and their lines as two tables. */
async function tablesOf(db: DB, period: string, language: Language) {
  const payouts = await db
    .selectFrom('payouts as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select([
      'p.id',
      'p.period',
      'p.status',
      'p.total',
      'p.line_count',
      'p.approved_at',
      'p.paid_at',
      'p.note',
      'u.first_name',
      'u.last_name',
      'u.email',
    ])
    .where('p.period', '=', period)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .orderBy('p.id')
    .execute();
  const ids = payouts.map((payout) => Number(payout.id));
  const names = new Map(payouts.map((payout) => [Number(payout.id), personName(payout)]));
  const lines =
    ids.length === 0
      ? []
      : await db
          .selectFrom('commission_lines')
          .select([
            'id',
            'payout_id',
            'created_at',
            'period',
            'kind',
            'contract_number',
            'customer_name',
            'explain',
            'reason',
            'amount',
          ])
          .where('payout_id', 'in', ids)
          .orderBy('payout_id')
          .orderBy('period')
          .orderBy('created_at')
          .orderBy('id')
          .execute();
  const order = new Map(ids.map((id, at) => [id, at]));
  lines.sort(
    (a, b) => (order.get(Number(a.payout_id)) ?? 0) - (order.get(Number(b.payout_id)) ?? 0),
  );
  const reason = label('app.payouts.statement.reason', language);

  const payoutTable: Table = {
    columns: PAYOUT_COLUMNS,
    rows: payouts.map((payout) => [
      Number(payout.id),
      personName(payout),
      payout.email,
      payout.period,
      label(`enums.payoutStatus.${String(payout.status ?? 'new')}`, language),
      Number(payout.line_count ?? 0),
      Number(payout.total ?? 0) / 100,
      swissDay(payout.approved_at),
      swissDay(payout.paid_at),
      payout.note,
    ]),
    totals: [
      label('app.payouts.export.total', language),
      null,
      null,
      period,
      null,
      payouts.reduce((sum, payout) => sum + Number(payout.line_count ?? 0), 0),
      payouts.reduce((sum, payout) => sum + Number(payout.total ?? 0), 0) / 100,
      null,
      null,
      null,
    ],
  };
  const lineTable: Table = {
    columns: LINE_COLUMNS,
    rows: lines.map((line) => {
      const explain = explainTexts(line.explain, language);
      if (line.reason) explain.push(`${reason}: ${line.reason}`);
      return [
        Number(line.payout_id),
        names.get(Number(line.payout_id)) ?? '',
        Number(line.id),
        swissDay(line.created_at),
        line.period,
        label(`enums.commissionLineKind.${line.kind}`, language),
        line.contract_number,
        line.customer_name,
        explain.join(' · '),
        Number(line.amount) / 100,
      ];
    }),
  };
  return { payoutTable, lineTable };
}

const header = (columns: Column[], language: Language) =>
  columns.map((column) => label(`app.payouts.export.column.${column.key}`, language));

function csvValue(value: Value, column: Column | undefined): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return swissToday(value);
  if (typeof value === 'number' && column?.kind === 'chf') return value.toFixed(2);
  return String(value);
}

function csvRows(table: Table, language: Language): string[][] {
  const row = (values: Value[]) => values.map((value, at) => csvValue(value, table.columns[at]));
  return [
    header(table.columns, language),
    ...table.rows.map(row),
    ...(table.totals ? [row(table.totals)] : []),
  ];
}

function addSheet(workbook: ExcelJS.Workbook, name: string, table: Table, language: Language) {
  const sheet = workbook.addWorksheet(name.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = table.columns.map((column, at) => ({
    header: header(table.columns, language)[at],
    width: column.width,
  }));
  sheet.getRow(1).font = { bold: true };
  // Dates as Swiss days: Excel's dates have no zone, so the day is written at midnight UTC.
  const cell = (value: Value) =>
    value instanceof Date ? new Date(`${swissToday(value)}T00:00:00Z`) : value;
  for (const values of table.rows) sheet.addRow(values.map(cell));
  if (table.totals) sheet.addRow(table.totals.map(cell)).font = { bold: true };
  table.columns.forEach((column, at) => {
    if (column.kind === 'chf') sheet.getColumn(at + 1).numFmt = '#,##0.00';
    if (column.kind === 'date') sheet.getColumn(at + 1).numFmt = 'dd.mm.yyyy';
  });
}

export interface ExportFile {
  body: Buffer | string;
  contentType: string;
  fileName: string;
}

/** The month's payouts as CSV or XLSX. */
export async function payoutExport(
  db: DB,
  period: string,
  format: ExportFormat,
  language: Language,
): Promise<ExportFile> {
  const { payoutTable, lineTable } = await tablesOf(db, period, language);
  const fileName = `payouts-${period}.${format}`;
  if (format === 'csv') {
    const body = stringify(
      [...csvRows(payoutTable, language), [], ...csvRows(lineTable, language)],
      { delimiter: ';', bom: true, record_delimiter: 'windows' },
    );
    return { body, contentType: CONTENT_TYPES.csv, fileName };
  }
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'GS CRM';
  workbook.title = `${label('app.payouts.export.title', language)} ${period}`;
  addSheet(workbook, label('app.payouts.export.sheet.payouts', language), payoutTable, language);
  addSheet(workbook, label('app.payouts.export.sheet.lines', language), lineTable, language);
  return {
    body: Buffer.from(await workbook.xlsx.writeBuffer()),
    contentType: CONTENT_TYPES.xlsx,
    fileName,
  };
}
