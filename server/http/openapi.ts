/**
 * The OpenAPI document (`/api/docs/json`) and its UI (`/api/docs`), built by @fastify/swagger from
 * the route schemas. Installed on the root before the features, so it sees every route.
 */
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { JsonSchema } from '../../src/schema/model.ts';
import { boundIntegers, READ_ONLY_KEYWORD } from './validation.ts';

/** Parts of a route schema that validate requests: published with the bounds the compiler adds. */
const INPUT_PARTS = ['body', 'querystring', 'params', 'headers'];

/** The route schema as the validators see it: every integer input bounded by its column type. */
function withBounds(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([part, value]) => [
      part,
      INPUT_PARTS.includes(part) && value && typeof value === 'object'
        ? boundIntegers(value as JsonSchema)
        : value,
    ]),
  );
}

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'GS CRM API',
        version: '0.1.0',
        description:
          'Provider API of GS CRM. Keys are snake_case; send `Authorization: Bearer <token>` from POST /api/auth/login.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: ({ schema, url }) => ({
      schema: stripExtensions(withBounds(schema)) as typeof schema,
      url,
    }),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
}

/**
 * OpenAPI has no place for our x- keywords; keep them out of the published document. A property
 * marked read-only in a PATCH body is refused there, so it is not published as an input at all.
 */
function stripExtensions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripExtensions);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !key.startsWith('x-'))
      .map(([key, child]) => [
        key,
        key === 'enum' || key === 'default'
          ? child
          : stripExtensions(key === 'properties' ? withoutRefused(child) : child),
      ]),
  );
}

function withoutRefused(properties: unknown): unknown {
  if (!properties || typeof properties !== 'object') return properties;
  return Object.fromEntries(
    Object.entries(properties).filter(
      ([, schema]) => !(schema && typeof schema === 'object' && READ_ONLY_KEYWORD in schema),
    ),
  );
}
