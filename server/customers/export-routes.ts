/**
 * Customers out as CSV (the client report):
 *   GET /api/customers/export?from&until&lead_source&delimiter   CSV, streamed
 * The export itself: ./export.ts. The import (customers and leads) is server/import/.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError, issue } from '../http/errors.ts';
import { type ExportQuery, exportCustomers, exportFileName, exportQuerySchema } from './export.ts';

export async function exportRoutes(app: FastifyInstance): Promise<void> {
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
