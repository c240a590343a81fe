/**
 * The routes of a resource's CSV import (./resource.ts says what differs between resources):
 *   POST /api/<resource>/import/preview  multipart: file (CSV), options (JSON); writes nothing
 *   POST /api/<resource>/import          same; `Accept: application/x-ndjson` streams progress
 * The import itself: ./rows.ts.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { auditContextOf } from '../audit/context.ts';
import { audit } from '../auth/audit.ts';
import { requireRole } from '../customers/access.ts';
import { ApiError, errorBody, type ErrorIssue, type FieldErrors, issue } from '../http/errors.ts';
import { type ImportMode, receiveImport } from './file.ts';
import { planImport } from './plan.ts';
import type { ResourceImport } from './resource.ts';
import { prepareImport, writeImport } from './rows.ts';

const importSchema = (description: ResourceImport, summary: string) => ({
  tags: [description.resource],
  summary,
  description: `Multipart: \`file\` (CSV: UTF-8 or Windows-1252, \`,\` \`;\` or tab, a header line) and \`options\` (JSON: mapping {column: field|null}, mode all_or_nothing|skip_invalid, encoding, delimiter, import_lead_source, import_recommended_by, assigned_to, duplicates {all?, rows: {"<row>": {action: skip|import${description.merges ? '|merge, into?' : ''}}}}). Rows are checked like creates, and people on the blacklist refused; row_errors name row, line, column and field (English \`message\`, translation \`key\` and \`args\`). Valid rows like existing ${description.resource} or an earlier row are listed in \`duplicates\` (matches with id and reasons) and written only as chosen. The preview's \`fields\` are the fields a column may fill. For: ${[...description.roles].join(', ')}.`,
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

export async function importRoutes(
  app: FastifyInstance,
  description: ResourceImport,
): Promise<void> {
  const { resource, roles, action } = description;

  app.post(
    `/api/${resource}/import/preview`,
    {
      config: { access: 'authenticated' },
      schema: importSchema(
        description,
        `Check a CSV of ${resource} and show what would be imported; writes nothing.`,
      ),
    },
    async (request) => {
      const principal = requireRole(request, roles, action);
      const { buffer, options } = await receiveImport(request);
      const prepared = await prepareImport(app, description, buffer, options, principal);
      return {
        columns: prepared.parsed.headers,
        delimiter: prepared.parsed.delimiter,
        encoding: prepared.parsed.encoding,
        fields: prepared.fields,
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
    `/api/${resource}/import`,
    {
      config: { access: 'authenticated' },
      schema: importSchema(
        description,
        `Import a CSV of ${resource}: all_or_nothing (default) writes nothing when a row is invalid (422); skip_invalid writes the valid rows. With Accept: application/x-ndjson the answer streams progress lines, then the summary.`,
      ),
    },
    async (request, reply) => {
      const principal = requireRole(request, roles, action);
      const { buffer, fileName, options } = await receiveImport(request);
      const mode: ImportMode = options.mode ?? 'all_or_nothing';
      const streaming = String(request.headers.accept ?? '').includes('application/x-ndjson');

      const run = async (progress: (line: StreamLine) => void) => {
        const prepared = await prepareImport(app, description, buffer, options, principal);
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
        const plan = planImport(
          prepared.valid,
          prepared.flagged,
          options.duplicates,
          total,
          description.merges,
        );
        const written = await writeImport(
          description,
          prepared.context,
          auditContextOf(request),
          plan,
          (phase, done, all) => progress({ type: 'progress', phase, done, total: all }),
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
        await audit(app.db, `${resource}.imported`, {
          userId: principal.id,
          ip: request.ip,
          resource,
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
}
