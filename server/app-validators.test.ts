/**
 * The request validators and response serializers of buildApp (routeValidators, routeSerializers
 * in app.ts): one per distinct schema, and in the server's lazy mode compiled at first use or by
 * the warm-up after listening, answering as the eagerly compiled ones do.
 */
import { describe, expect, it } from 'vitest';
import { routeSerializers, routeValidators } from './app.ts';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['page'],
  properties: { page: { type: 'integer', minimum: 1 } },
};
const route = (part: 'querystring' | 'body', url = '/api/things') => ({
  schema: structuredClone(schema),
  method: 'GET',
  url,
  httpPart: part,
});

/** Fastify's call: the data, and its parent when the validator has schemaEnv. */
function run(validate: ReturnType<ReturnType<typeof routeValidators>['compiler']>, data: object) {
  const parent = { query: data };
  const valid = (validate as (data: unknown, cxt: object) => boolean)(data, {
    parentData: parent,
    parentDataProperty: 'query',
  });
  return { valid, errors: validate.errors, data: parent.query };
}

describe('route validators', () => {
  it('share one validator between routes with equal schemas, per part', () => {
    const { compiler } = routeValidators(false);
    const first = compiler(route('querystring'));
    expect(compiler(route('querystring', '/api/others'))).toBe(first);
    expect(compiler(route('body'))).not.toBe(first);
  });

  it('lazy ones answer as eager ones: coercion, errors, the errors of the last call only', () => {
    const eager = routeValidators(false).compiler(route('querystring'));
    const lazy = routeValidators(true).compiler(route('querystring'));
    expect('schemaEnv' in lazy && Boolean(lazy.schemaEnv)).toBe(true);
    for (const validate of [eager, lazy]) {
      const good = run(validate, { page: '2' });
      expect(good).toEqual({ valid: true, errors: null, data: { page: 2 } });
      const bad = run(validate, { page: '0', extra: 1 });
      expect(bad.valid).toBe(false);
      expect(bad.errors?.map((error) => error.keyword).sort()).toEqual(
        run(eager, { page: '0', extra: 1 })
          .errors?.map((error) => error.keyword)
          .sort(),
      );
      expect(run(validate, { page: '3' }).errors).toBeNull();
    }
  });

  it('lazy: nothing compiled until used or warmed up; a schema ajv refuses is reported', async () => {
    const { compiler, warmUp } = routeValidators(true);
    // Unknown keywords are refused in strict mode: compiling would throw.
    const broken = compiler({ ...route('querystring'), schema: { type: 'object', nonsense: 1 } });
    const fine = compiler(route('body'));
    const logged: string[] = [];
    const original = console.error;
    console.error = (message: string) => logged.push(message);
    try {
      await warmUp();
    } finally {
      console.error = original;
    }
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/GET \/api\/things querystring does not compile/);
    expect(() => run(broken, {})).toThrow();
    expect(run(fine, { page: 1 }).valid).toBe(true);
  });
});

describe("a route's own validator compiler", () => {
  it('lazy: called at first use (or by the warm-up), answering as it does', async () => {
    const calls: string[] = [];
    const own = (definition: { url: string }) => {
      calls.push(definition.url);
      return routeValidators(false).compiler(route('querystring'));
    };
    const lazy = routeValidators(true);
    const validate = lazy.routeCompiler(own as never)(route('querystring', '/api/own'));
    const later = lazy.routeCompiler(own as never)(route('querystring', '/api/later'));
    expect(calls).toEqual([]);
    expect(run(validate, { page: '2' })).toEqual({ valid: true, errors: null, data: { page: 2 } });
    expect(run(validate, { page: '0' }).valid).toBe(false);
    expect(calls).toEqual(['/api/own']);
    await lazy.warmUp();
    expect(calls).toEqual(['/api/own', '/api/later']);
    expect(run(later, { page: 1 }).valid).toBe(true);
    expect(routeValidators(false).routeCompiler(own as never)).toBe(own);
  });
});

describe('route serializers', () => {
  const response = {
    type: 'object',
    properties: { id: { type: 'integer' }, name: { type: 'string' }, tags: { type: 'array' } },
  };
  const routeOf = (schema: object, url = '/api/things') => ({
    schema: structuredClone(schema),
    method: 'GET',
    url,
    httpStatus: '200',
  });

  it('lazy ones write what eager ones write, one per distinct schema', () => {
    const eager = routeSerializers(false).buildSerializer(undefined, undefined);
    const lazy = routeSerializers(true).buildSerializer(undefined, undefined);
    const data = { id: 7, name: 'Zoë "quoted"', tags: ['a', 1], secret: 'not in the schema' };
    const written = eager(routeOf(response))(data);
    expect(JSON.parse(written)).toEqual({ id: 7, name: 'Zoë "quoted"', tags: ['a', 1] });
    expect(lazy(routeOf(response))(data)).toBe(written);
    expect(lazy(routeOf(response, '/api/others'))).toBe(lazy(routeOf(response)));
  });

  it('lazy: compiled by the warm-up; a schema it refuses is reported', async () => {
    const { buildSerializer, warmUp } = routeSerializers(true);
    const compile = buildSerializer(undefined, undefined);
    const broken = compile(routeOf({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }));
    const fine = compile(routeOf(response));
    const logged: string[] = [];
    const original = console.error;
    console.error = (message: string) => logged.push(message);
    try {
      await warmUp();
    } finally {
      console.error = original;
    }
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/GET \/api\/things 200 does not compile/);
    expect(() => broken({ a: 1 })).toThrow();
    expect(fine({ id: 1 })).toBe('{"id":1}');
  });
});
