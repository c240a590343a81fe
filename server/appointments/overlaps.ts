/**
 * `GET /api/appointments/overlaps?consultant_id=&date_start=&date_end=&exclude_id=`: the
 * consultant's planned appointments (status 1, 3) that overlap the range — the double-booking
 * warning of the form and the calendar. Only appointments the caller may see are answered (the
 * same scope as `GET /api/appointments`), so the warning reveals nothing of other consultants'
 * books to a consultant.
 */
import type { FastifyInstance } from 'fastify';
import { PLANNED_STATUSES } from '../../src/schema/appointments.ts';
import { scopeExpression } from '../access/scope.ts';
import { scopeFor } from '../customers/access.ts';
import { ApiError, issue } from '../http/errors.ts';

/** At most this many overlaps are answered (a warning, not a list). */
export const MAX_OVERLAPS = 50;

interface OverlapsQuery {
  consultant_id: number;
  date_start: string;
  date_end: string;
  exclude_id?: number;
}

const idSchema = { type: 'integer', minimum: 1, maximum: 2_147_483_647 } as const;

export async function overlapRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: OverlapsQuery }>(
    '/api/appointments/overlaps',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['appointments'],
        summary:
          "The consultant's planned appointments (status 1 or 3) overlapping a range (the double-booking warning): those the caller may see, earliest first, at most 50.",
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['consultant_id', 'date_start', 'date_end'],
          properties: {
            consultant_id: { ...idSchema, description: 'The consultant (users.id).' },
            date_start: { type: 'string', format: 'date-time' },
            date_end: { type: 'string', format: 'date-time' },
            exclude_id: {
              ...idSchema,
              description: 'An appointment to leave out (the one being moved or edited).',
            },
          },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              data: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    id: { type: 'integer' },
                    date_start: { type: 'string', format: 'date-time' },
                    date_end: { type: 'string', format: 'date-time' },
                    client_name: { type: ['string', 'null'] },
                    status: { type: 'integer' },
                  },
                },
              },
            },
          },
        },
      },
    },
    async (request) => {
      const { consultant_id: consultantId, date_start, date_end, exclude_id } = request.query;
      const start = Date.parse(date_start);
      const end = Date.parse(date_end);
      if (!(end > start)) {
        throw new ApiError(400, issue('invalidQuery', { fields: 'date_end' }), {
          date_end: [issue('endBeforeStart')],
        });
      }
      const scope = scopeFor(app, 'appointments', request.principal);
      let query = app.db
        .selectFrom('appointments')
        .select(['id', 'date_start', 'date_end', 'client_name', 'status'])
        .where('consultant_id', '=', consultantId)
        .where('status', 'in', [...PLANNED_STATUSES])
        .where('date_start', '<', new Date(end))
        .where('date_end', '>', new Date(start))
        .where(scopeExpression(scope));
      if (exclude_id !== undefined) query = query.where('id', '!=', exclude_id);
      const rows = await query.orderBy('date_start').orderBy('id').limit(MAX_OVERLAPS).execute();
      return { data: rows };
    },
  );
}
