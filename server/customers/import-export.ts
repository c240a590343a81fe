/**
 * Customers in and out as CSV (back office import, client report export):
 *   POST /api/customers/import/preview  multipart: file (CSV), options (JSON); writes nothing
 *   POST /api/customers/import          same; `Accept: application/x-ndjson` streams progress
 *   GET  /api/customers/export?from&until&lead_source&delimiter   CSV, streamed
 * The import itself: ./import-rows.ts; the export: ./export.ts.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { audit } from '../auth/audit.ts';
import { ApiError, errorBody, type ErrorIssue, type FieldErrors, issue } from '../http/errors.ts';
import { IMPORT_ROLES, requireRole } from './access.ts';
import { type ExportQuery, exportCustomers, exportFileName, exportQuerySchema } from './export.ts';
import { type ImportMode, receiveImport } from './import-file.ts';
import { planImport } from './import-duplicates.ts';
import { prepareImport, writeImport } from './import-rows.ts';
import { auditContextOf } from '../audit/context.ts';

const importSchema = (summary: string) => ({
  tags: ['customers'],
  summary,
  description:
    'Multipart: `file` (CSV: UTF-8 or Windows-1252, `,` `;` or tab, a header line) and `options` (JSON: mapping {column: field|null}, mode all_or_nothing|skip_invalid, encoding, delimiter, import_lead_source, import_recommended_by, assigned_to, duplicates {all?, rows: {"<row>": {action: skip|import|merge, into?}}}). Rows are checked like creates; row_errors name row, line, column and field (English `message`, translation `key` and `args`). Valid rows like existing customers or an earlier row are listed in `duplicates` (matches with id and reasons) and written only as chosen.',
});

/** At most this many row errors and merges are listed in a summary. */
const MAX_REPORTED = 1000;

/** One line of the streamed answer (NDJSON): progress, then the summary or the error. */
type StreamLine = { type: 'progress' | 'summary' | 'error' } & Record<string, unknown>;

/** An import refused as a whole (all_or_nothing), with the errors of its rows. */
class RowsRefused extends ApiError {
  constructor(
    message: ErrorIssue,
    errors: FieldErrors,
    readonly rowErrors: unknown,
  ) {
    super(422, message, errors);
  }
}

export async function importExportRoutes(app: FastifyInstance): Promise<void> {
  app.post(
    '/api/customers/import/preview',
    {
      config: { access: 'authenticated' },
      schema: importSchema(
        'Check a CSV of customers and show what would be imported; writes nothing.',
      ),
    },
    async (request) => {
      requireRole(request, IMPORT_ROLES, 'import customers');
      const { buffer, options } = await receiveImport(request);
      const prepared = await prepareImport(app, buffer, options, request.principal);
      return {
        columns: prepared.parsed.headers,
        delimiter: prepared.parsed.delimiter,
        encoding: prepared.parsed.encoding,
        mapping: prepared.mapping,
        suggested_mapping: prepared.suggested,
        total_rows: prepared.parsed.rows.length,
        valid_rows: prepared.valid.length,
        invalid_rows: prepared.invalidRows,
        row_errors: prepared.errors,
        preview: prepared.preview,
        duplicate_rows: prepared.flagged.size,
        duplicates: prepared.duplicates,
      };
    },
  );

  app.post(
    '/api/customers/import',
    {
      config: { access: 'authenticated' },
      schema: importSchema(
        'Import a CSV of customers: all_or_nothing (default) writes nothing when a row is invalid (422); skip_invalid writes the valid rows. With Accept: application/x-ndjson the answer streams progress lines, then the summary.',
      ),
    },
    async (request, reply) => {
      const principal = requireRole(request, IMPORT_ROLES, 'import customers');
      const { buffer, fileName, options } = await receiveImport(request);
      const mode: ImportMode = options.mode ?? 'all_or_nothing';
      const streaming = String(request.headers.accept ?? '').includes('application/x-ndjson');

      const run = async (progress: (line: StreamLine) => void) => {
        const prepared = await prepareImport(app, buffer, options, request.principal);
        const total = prepared.parsed.rows.length;
        progress({ type: 'progress', phase: 'checked', done: total, total });
        if (mode === 'all_or_nothing' && prepared.invalidRows > 0) {
          throw new RowsRefused(
            issue('rowsRefused', { invalid: prepared.invalidRows, total }),
            { file: [issue('rowsHaveErrors', { count: prepared.invalidRows })] },
            prepared.errors,
          );
        }
        // Likely duplicates: the user's choices (422 naming a choice that cannot apply).
        const plan = planImport(prepared.valid, prepared.flagged, options.duplicates, total);
        const written = await writeImport(app, auditContextOf(request), plan, (phase, done, all) =>
          progress({ type: 'progress', phase, done, total: all }),
        );
        const skipped =
          prepared.invalidRows +
          plan.skipped.length +
          plan.unresolved.length +
          new Set(written.refused.map((error) => error.row)).size;
        const summary = {
          total_rows: total,
          imported: written.imported,
          merged: written.merged.length,
          skipped,
          skipped_duplicates: plan.skipped.length,
          unresolved_duplicates: plan.unresolved.length,
          mode,
          row_errors: [...prepared.errors, ...written.refused].slice(0, MAX_REPORTED),
          merges: written.merged.slice(0, MAX_REPORTED),
        };
        await audit(app.db, 'customers.imported', {
          userId: principal.id,
          ip: request.ip,
          resource: 'customers',
          details: {
            file: fileName,
            total_rows: total,
            imported: written.imported,
            merged: written.merged.map((merge) => ({
              row: merge.row,
              customer: merge.customer_id,
            })),
            skipped,
            skipped_duplicates: plan.skipped.length,
            unresolved_duplicates: plan.unresolved.length,
            mode,
          },
        });
        return summary;
      };

      if (!streaming) {
        try {
          return await run(() => {});
        } catch (error) {
          if (error instanceof RowsRefused) {
            return reply.status(error.statusCode).send({
              ...errorBody(error.issue, error.errors),
              row_errors: error.rowErrors,
            });
          }
          throw error;
        }
      }
      // Streaming: one JSON object per line; the last one is the summary or the error.
      const out = new PassThrough();
      reply
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('cache-control', 'no-store');
      const write = (line: StreamLine) => out.write(`${JSON.stringify(line)}\n`);
      run(write)
        .then((summary) => write({ type: 'summary', ...summary }))
        .catch((error: unknown) => {
          const apiError = error instanceof ApiError ? error : undefined;
          if (!apiError) request.log.error({ err: error }, 'import failed');
          write({
            type: 'error',
            status: apiError?.statusCode ?? 500,
            ...errorBody(apiError?.issue ?? issue('internal'), apiError?.errors),
            row_errors: error instanceof RowsRefused ? error.rowErrors : undefined,
          });
        })
        .finally(() => out.end());
      return reply.send(out);
    },
  );

  app.get<{ Querystring: ExportQuery }>(
    '/api/customers/export',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['customers'],
        summary:
          'Client report: the customers the user sees, created from..until (dates, Swiss time), of the given lead sources, as CSV (UTF-8 with BOM, `;`), streamed.',
        querystring: exportQuerySchema,
      },
    },
    async (request, reply) => {
      const query = request.query;
      if (query.from && query.until && query.from > query.until) {
        throw new ApiError(400, issue('invalidQuery', { fields: 'until' }), {
          until: [issue('notBeforeFrom')],
        });
      }
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName()}"`)
        .header('cache-control', 'private, no-store');
      return reply.send(exportCustomers(app, request, query));
    },
  );
}
