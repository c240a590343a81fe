/**
 * The back office's reports (issue 16; spec §3 "report filters"; docs/ARCHITECTURE.md "Reports"):
 *
 *   GET /api/reports/:kind?from&until&lead_sources&date_basis
 *       → { data: { kind, date_basis, from, until, measures, months, sources, rows, by_source,
 *                   by_month, totals } }
 *   GET /api/reports/:kind/export?format=csv|xlsx&language&…the same filters → the file
 *
 * `kind` is clients, contracts, appointments or leads; `from`/`until` are Swiss days (either may
 * be left out); `lead_sources` ids (any number of `lead_sources=`); `date_basis` the date the range
 * and the months refer to (src/schema/reports.ts REPORT_DATE_BASES; the kind's first by default).
 *
 * Who: ADMIN runs every report, BACKOFFICE and BACKOFFICE-CALLCENTER those their account lists
 * (`users.reports`), anyone else none (src/schema/reports.ts reportsOf, carried by the session's
 * principal): 403 before the query is even validated. The figures count every record of the
 * lead sources the user's role may see (src/schema/leads.ts leadSourceVisible) and those without a
 * lead source; naming another source is 422 on `lead_sources`. Within those, every record counts,
 * whoever owns it: a report is statistics, not a list (the call centre's leads report counts all
 * leads of its sources, not only the unassigned and its own).
 * Bad input: a malformed date, kind, id or basis is 400 naming the field (the route's schema);
 * `until` before `from`, a basis the kind does not offer, an unknown or hidden lead source are
 * 422 naming `until`, `date_basis`, `lead_sources`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ID_SCHEMA } from '../../src/schema/limits.ts';
import { leadSourceVisible } from '../../src/schema/leads.ts';
import {
  DATE_BASES,
  type DateBasis,
  isReportKind,
  MAX_REPORT_LEAD_SOURCES,
  REPORT_DATE_BASES,
  REPORT_KINDS,
  REPORT_MEASURES,
  type ReportKind,
} from '../../src/schema/reports.ts';
import { LANGUAGES, type Language, languageOf } from '../customers/labels.ts';
import { addError, ApiError, type FieldErrors, forbidden, issue } from '../http/errors.ts';
import { dataSchema } from '../http/lists.ts';
import {
  CONTENT_TYPES,
  EXPORT_FORMATS,
  type ExportFormat,
  reportCsv,
  reportFileName,
  reportXlsx,
} from './export.ts';
import type { ReportFilter } from './figures.ts';
import { wireMeasure } from './figures.ts';
import { buildReport, type Report } from './report.ts';

interface ReportQuery {
  from?: string;
  until?: string;
  lead_sources?: number[];
  date_basis?: DateBasis;
}

interface ExportQuery extends ReportQuery {
  format: ExportFormat;
  language?: Language;
}

interface KindParams {
  kind: ReportKind;
}

const paramsSchema = {
  type: 'object',
  required: ['kind'],
  properties: { kind: { type: 'string', enum: [...REPORT_KINDS] } },
} as const;

const filterProperties = {
  from: { type: 'string', format: 'date', description: 'First Swiss day (inclusive).' },
  until: { type: 'string', format: 'date', description: 'Last Swiss day (inclusive).' },
  lead_sources: {
    type: 'array',
    maxItems: MAX_REPORT_LEAD_SOURCES,
    items: ID_SCHEMA,
    description:
      'Only these lead sources (ids the role may see); without: every visible source and records without one.',
  },
  date_basis: {
    type: 'string',
    enum: [...DATE_BASES],
    description:
      "What the range and the months refer to: created (every report), appointment (appointments' start), signing (contracts' signing date, else the day entered; their default).",
  },
} as const;

const querySchema = { type: 'object', additionalProperties: false, properties: filterProperties };

const exportQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...filterProperties,
    format: { type: 'string', enum: [...EXPORT_FORMATS], default: 'csv' },
    language: {
      type: 'string',
      enum: [...LANGUAGES],
      description: "Headers and names in this language (default: the user's).",
    },
  },
} as const;

const ALL_MEASURES = [...new Set(Object.values(REPORT_MEASURES).flat())].map(wireMeasure);
const figuresSchema = {
  type: 'object',
  properties: Object.fromEntries(ALL_MEASURES.map((measure) => [measure, { type: 'number' }])),
};
const withFigures = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties: { ...properties, ...figuresSchema.properties },
});
const NULLABLE_ID = { type: ['integer', 'null'] };

const reportSchema = {
  type: 'object',
  properties: {
    kind: { type: 'string' },
    date_basis: { type: 'string' },
    from: { type: ['string', 'null'] },
    until: { type: ['string', 'null'] },
    measures: { type: 'array', items: { type: 'string' } },
    months: { type: 'array', items: { type: 'string' } },
    sources: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: NULLABLE_ID, name: { type: ['string', 'null'] } },
      },
    },
    rows: {
      type: 'array',
      items: withFigures({ lead_source: NULLABLE_ID, month: { type: 'string' } }),
    },
    by_source: { type: 'array', items: withFigures({ lead_source: NULLABLE_ID }) },
    by_month: { type: 'array', items: withFigures({ month: { type: 'string' } }) },
    totals: figuresSchema,
  },
};

const wireFigures = (values: Record<string, number>) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [wireMeasure(key), value]));

/** The report on the wire (snake_case). */
export function reportWire(report: Report) {
  return {
    kind: report.kind,
    date_basis: report.basis,
    from: report.from,
    until: report.until,
    measures: report.measures.map(wireMeasure),
    months: report.months,
    sources: report.sources,
    rows: report.cells.map((cell) => ({
      lead_source: cell.leadSource,
      month: cell.month,
      ...wireFigures(cell.values),
    })),
    by_source: report.bySource.map((row) => ({
      lead_source: row.leadSource,
      ...wireFigures(row.values),
    })),
    by_month: report.byMonth.map((row) => ({ month: row.month, ...wireFigures(row.values) })),
    totals: wireFigures(report.totals),
  };
}

/**
 * Refuses (403) a user who may not run this report — before the query is validated, so a user
 * without reports learns nothing from the answers. An unknown kind is left to the schema (400).
 */
async function mayRun(request: FastifyRequest) {
  const reports = request.principal?.reports ?? [];
  const kind = (request.params as { kind?: unknown } | undefined)?.kind;
  if (reports.length === 0 || (isReportKind(kind) && !reports.includes(kind))) throw forbidden();
}

/** The filter of a valid query, or 422 naming what does not fit. */
async function filterOf(
  app: FastifyInstance,
  request: FastifyRequest,
  kind: ReportKind,
  query: ReportQuery,
): Promise<ReportFilter> {
  const errors: FieldErrors = {};
  if (query.from && query.until && query.from > query.until)
    addError(errors, 'until', issue('notBeforeFrom'));
  const bases = REPORT_DATE_BASES[kind];
  const basis = query.date_basis ?? bases[0];
  if (!bases.includes(basis))
    addError(errors, 'date_basis', issue('enum', { values: bases.join(', ') }));

  const viewer = request.principal!;
  const sources = await app.db.selectFrom('lead_sources').select(['id', 'visible_roles']).execute();
  const visible = sources
    .filter((source) => leadSourceVisible(viewer, source.visible_roles as string[] | null))
    .map((source) => Number(source.id));
  const chosen = query.lead_sources ? [...new Set(query.lead_sources)] : null;
  if (chosen) {
    const known = new Set(sources.map((source) => Number(source.id)));
    const unknown = chosen.filter((id) => !known.has(id));
    const hidden = chosen.filter((id) => known.has(id) && !visible.includes(id));
    if (unknown.length > 0)
      addError(
        errors,
        'lead_sources',
        issue('unknownReference', { resource: 'lead-sources', ids: unknown.join(', ') }),
      );
    if (hidden.length > 0) addError(errors, 'lead_sources', issue('leadSourceHidden'));
  }
  if (Object.keys(errors).length > 0) {
    throw new ApiError(
      422,
      issue('invalidQuery', { fields: Object.keys(errors).join(', ') }),
      errors,
    );
  }
  return {
    kind,
    basis,
    from: query.from,
    until: query.until,
    sources: chosen,
    visible: visible.length === sources.length ? null : visible,
  };
}

export default async function reports(app: FastifyInstance): Promise<void> {
  app.get<{ Params: KindParams; Querystring: ReportQuery }>(
    '/api/reports/:kind',
    {
      config: { access: 'authenticated' },
      onRequest: mayRun,
      schema: {
        tags: ['reports'],
        summary:
          "A report's figures per lead source and month (Swiss time), rolled up by lead source, by month and in total. ADMIN: every report; BACKOFFICE, BACKOFFICE-CALLCENTER: those their account lists; others 403.",
        params: paramsSchema,
        querystring: querySchema,
        response: { 200: dataSchema(reportSchema) },
      },
    },
    async (request) => {
      const { kind } = request.params;
      const filter = await filterOf(app, request, kind, request.query);
      const language = languageOf(request.principal?.language);
      return { data: reportWire(await buildReport(app.db, filter, language)) };
    },
  );

  app.get<{ Params: KindParams; Querystring: ExportQuery }>(
    '/api/reports/:kind/export',
    {
      config: { access: 'authenticated' },
      onRequest: mayRun,
      schema: {
        tags: ['reports'],
        summary:
          "The report as CSV (UTF-8 with BOM, `;`: one line per lead source and month, then the totals) or XLSX (sheets by lead source, by month, and those lines), headers in the language asked for or the user's.",
        params: paramsSchema,
        querystring: exportQuerySchema,
      },
    },
    async (request, reply) => {
      const { kind } = request.params;
      const filter = await filterOf(app, request, kind, request.query);
      const language = request.query.language ?? languageOf(request.principal?.language);
      const report = await buildReport(app.db, filter, language);
      const format = request.query.format;
      reply
        .header('content-type', CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename="${reportFileName(kind, format)}"`)
        .header('cache-control', 'private, no-store');
      return reply.send(
        format === 'xlsx' ? await reportXlsx(report, language) : reportCsv(report, language),
      );
    },
  );
}
