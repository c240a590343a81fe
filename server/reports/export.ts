/**
 * A report as a file, in the user's language (headers, lead-source names, sheet names):
 * - CSV (UTF-8 with BOM, `;`, CRLF, as the other exports: what Excel on a Swiss machine opens):
 *   one line per lead source and month (`YYYY-MM`), its figures, and a last line with the totals
 *   — the long form a pivot table wants;
 * - XLSX (exceljs): three sheets — by lead source (with the conversion rates for leads), by month,
 *   and the lines of the CSV — each with a bold, frozen header and a totals row; counts are
 *   numbers, CHF amounts numbers with two decimals, rates percentages.
 * A report is already aggregated (a few hundred lines at most), so the file is built in memory.
 */
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { CHF_MEASURES, type ReportMeasure, rate } from '../../src/schema/reports.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';
import type { Language } from '../customers/labels.ts';
import { releaseLabel } from '../i18n/source.ts';
import type { Report, ReportSource } from './report.ts';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** 'report-leads-2026-11-22.xlsx', the export's day in Switzerland. */
export const reportFileName = (kind: string, format: ExportFormat, now = new Date()) =>
  `report-${kind}-${swissToday(now)}.${format}`;

/** The texts of a report's file in one language. */
export function reportTexts(report: Report, language: Language) {
  const label = (key: string) => releaseLabel(key, language);
  return {
    leadSource: label('app.reports.leadSource'),
    month: label('app.reports.month'),
    total: label('app.reports.total'),
    noLeadSource: label('app.reports.noLeadSource'),
    measure: (measure: ReportMeasure) =>
      label(
        measure === 'count' ? `app.reports.count.${report.kind}` : `app.reports.measure.${measure}`,
      ),
    appointmentRate: label('app.reports.appointmentRate'),
    closureRate: label('app.reports.closureRate'),
    sheetBySource: label('app.reports.sheet.bySource'),
    sheetByMonth: label('app.reports.sheet.byMonth'),
    sheetDetail: label('app.reports.sheet.detail'),
    title: label(`enums.report.${report.kind}`),
  };
}

const sourceName = (source: ReportSource | undefined, none: string) => source?.name ?? none;

/** The CSV's lines: header, one per lead source and month, totals. */
export function csvLines(report: Report, language: Language): string[][] {
  const texts = reportTexts(report, language);
  const sources = new Map(report.sources.map((source) => [source.id, source]));
  const value = (measure: ReportMeasure, number: number) =>
    CHF_MEASURES.includes(measure) ? number.toFixed(2) : String(number);
  const figures = (values: Record<ReportMeasure, number>) =>
    report.measures.map((measure) => value(measure, values[measure]));
  return [
    [texts.leadSource, texts.month, ...report.measures.map(texts.measure)],
    ...report.cells.map((cell) => [
      sourceName(sources.get(cell.leadSource), texts.noLeadSource),
      cell.month,
      ...figures(cell.values),
    ]),
    [texts.total, '', ...figures(report.totals)],
  ];
}

export function reportCsv(report: Report, language: Language): string {
  return stringify(csvLines(report, language), {
    delimiter: ';',
    bom: true,
    record_delimiter: 'windows',
  });
}

const CHF_FORMAT = '#,##0.00';
const RATE_FORMAT = '0.0%';

interface SheetColumn {
  header: string;
  width: number;
  format?: string;
}

function addSheet(
  workbook: ExcelJS.Workbook,
  name: string,
  columns: SheetColumn[],
  rows: Array<Array<string | number>>,
  totals: Array<string | number>,
) {
  // Excel allows 31 characters and none of : \ / ? * [ ] in a sheet's name.
  const sheet = workbook.addWorksheet(name.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = columns.map((column) => ({ header: column.header, width: column.width }));
  sheet.getRow(1).font = { bold: true };
  for (const values of rows) sheet.addRow(values);
  sheet.addRow(totals).font = { bold: true };
  columns.forEach((column, at) => {
    if (column.format) sheet.getColumn(at + 1).numFmt = column.format;
  });
}

export async function reportXlsx(report: Report, language: Language): Promise<Buffer> {
  const texts = reportTexts(report, language);
  const sources = new Map(report.sources.map((source) => [source.id, source]));
  const measureColumns: SheetColumn[] = report.measures.map((measure) => ({
    header: texts.measure(measure),
    width: Math.max(12, texts.measure(measure).length + 2),
    format: CHF_MEASURES.includes(measure) ? CHF_FORMAT : undefined,
  }));
  const figures = (values: Record<ReportMeasure, number>) =>
    report.measures.map((measure) => values[measure]);
  const conversion = report.kind === 'leads';
  const rates = (values: Record<ReportMeasure, number>) =>
    conversion
      ? [
          rate(values.withAppointment ?? 0, values.count),
          rate(values.withClosure ?? 0, values.withAppointment ?? 0),
        ]
      : [];
  const rateColumns: SheetColumn[] = conversion
    ? [
        { header: texts.appointmentRate, width: 16, format: RATE_FORMAT },
        { header: texts.closureRate, width: 16, format: RATE_FORMAT },
      ]
    : [];

  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'GS CRM';
  workbook.title = texts.title;
  const sourceColumn = { header: texts.leadSource, width: 28 };
  const monthColumn = { header: texts.month, width: 10 };
  addSheet(
    workbook,
    texts.sheetBySource,
    [sourceColumn, ...measureColumns, ...rateColumns],
    report.bySource.map((row) => [
      sourceName(sources.get(row.leadSource), texts.noLeadSource),
      ...figures(row.values),
      ...rates(row.values),
    ]),
    [texts.total, ...figures(report.totals), ...rates(report.totals)],
  );
  addSheet(
    workbook,
    texts.sheetByMonth,
    [monthColumn, ...measureColumns, ...rateColumns],
    report.byMonth.map((row) => [row.month, ...figures(row.values), ...rates(row.values)]),
    [texts.total, ...figures(report.totals), ...rates(report.totals)],
  );
  addSheet(
    workbook,
    texts.sheetDetail,
    [sourceColumn, monthColumn, ...measureColumns],
    report.cells.map((cell) => [
      sourceName(sources.get(cell.leadSource), texts.noLeadSource),
      cell.month,
      ...figures(cell.values),
    ]),
    [texts.total, '', ...figures(report.totals)],
  );
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
