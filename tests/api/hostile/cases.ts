/**
 * Hostile cases per operation, generated from the operation's published schemas: every body
 * field (nested ones dotted), query parameter, path parameter and form part is a slot; each payload
 * class that fits a slot gives values. The sequence interleaves the classes and walks every slot
 * of a class before repeating one, so a small sample already covers every class and a large one
 * every slot; the order comes from a seeded random source, so a run can be replayed.
 */
import type { JsonSchema } from '../../../src/schema/model.ts';
import type { Operation } from './openapi.ts';
import type { Random } from './random.ts';
import {
  BAD_TOKENS,
  bodyValues,
  type HostileClass,
  type HostileValue,
  HOSTILE_CLASSES,
  PATH_ID_VALUES,
  queryValues,
  toJson,
  typeOf,
  UNKNOWN_NAMES,
} from './values.ts';

export type PrincipalName = 'admin' | 'consultant' | 'anonymous';
/** Who sends a case: signed in four times in five (anonymous cases stop at the access check). */
const PRINCIPALS: PrincipalName[] = ['admin', 'consultant', 'admin', 'consultant', 'anonymous'];

export type Mutation =
  /** Sets a (dotted) body field; `add` marks a field the schema does not have. */
  | { kind: 'body'; path: Array<string | number>; value: unknown; add?: boolean }
  /** Appends URL text to the query string (`name=value`, already encoded). */
  | { kind: 'query'; text: string; names: string[] }
  /** Replaces a path parameter (encoded). */
  | { kind: 'path'; name: string; text: string; loose?: boolean }
  /** Replaces a text part of a form, a key of a JSON part, or a cell of a CSV file. */
  | { kind: 'form'; part: string; key?: string[]; value: unknown }
  | { kind: 'header'; name: string; value: string };

export interface HostileCase {
  op: Operation;
  cls: HostileClass;
  /** What was changed: `body.first_name`, `query.assigned_to`, `path.id`, `header.authorization`. */
  slot: string;
  mutation: Mutation;
  principal: PrincipalName;
  /** Position in the operation's sequence (part of the seed of its base values). */
  index: number;
}

interface Slot {
  name: string;
  values: HostileValue[];
  make(value: unknown): Mutation;
}

/** Body slots: every property, the properties of nested objects and of array items (one level). */
function bodySlots(schema: JsonSchema, prefix: Array<string | number> = [], depth = 0): Slot[] {
  const out: Slot[] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const path = [...prefix, name];
    out.push({
      name: `body.${path.join('.')}`,
      values: bodyValues(child),
      make: (value) => ({ kind: 'body', path, value }),
    });
    if (depth >= 2) continue;
    if (typeOf(child) === 'object' && child.properties)
      out.push(...bodySlots(child, path, depth + 1));
    const items = child.items;
    if (typeOf(child) === 'array' && items && typeOf(items) === 'object' && items.properties)
      out.push(...bodySlots(items, [...path, 0], depth + 1));
  }
  // Unknown fields at the top and inside nested objects.
  const unknown = UNKNOWN_NAMES.map((name) => ({ cls: 'unknown-field' as const, value: name }));
  out.push({
    name: `body.${[...prefix, '*'].join('.')}`,
    values: unknown,
    make: (value) => ({ kind: 'body', path: [...prefix, String(value)], value: 1, add: true }),
  });
  return out;
}

function querySlots(op: Operation): Slot[] {
  const out: Slot[] = op.query.map((param) => ({
    name: `query.${param.name}`,
    values: queryValues(param.schema),
    make: (value) => ({
      kind: 'query',
      text: `${param.name}=${String(value)}`,
      names: [param.name],
    }),
  }));
  const scalar = op.query.find((param) => typeOf(param.schema) !== 'array');
  const bad: string[] = [...UNKNOWN_NAMES.map((name) => `${name}=1`), '__proto__=1', 'a%00b=1'];
  if (scalar) {
    const name = scalar.name;
    bad.push(`${name}=1&${name}=2`, `${name}[]=1`, `${name}[0]=1`, `${name}[a]=1`, `${name}=`);
  }
  const names = new Set(op.query.map((param) => param.name));
  if (names.has('sort')) bad.push('sort=nope', 'sort=id%3Bdrop%20table%20users', 'sort=');
  if (names.has('order')) bad.push('order=sideways', 'order=asc&order=desc');
  if (names.has('per_page'))
    bad.push('per_page=0', 'per_page=-5', 'per_page=100000', 'per_page=2147483648', 'per_page=1.5');
  if (names.has('page')) bad.push('page=0', 'page=2147483648', 'page=-1', 'page=NaN');
  if (names.has('id')) bad.push('id=1&id=abc', `id=${'1,'.repeat(600)}1`, 'id=2147483648');
  out.push({
    name: 'query.*',
    values: bad.map((text) => ({ cls: 'bad-query', value: text })),
    make: (value) => ({
      kind: 'query',
      text: String(value),
      names: [...String(value).matchAll(/(?:^|&)([^=&]+)=/g)].map((match) =>
        decodeURIComponent(match[1]),
      ),
    }),
  });
  return out;
}

function pathSlots(op: Operation): Slot[] {
  return op.pathParams.map((param) => ({
    name: `path.${param.name}`,
    values: PATH_ID_VALUES,
    make: (value) => ({ kind: 'path', name: param.name, text: String(value) }),
  }));
}

function formSlots(op: Operation): Slot[] {
  const out: Slot[] = [];
  const text: JsonSchema = { type: 'string' };
  for (const part of op.form ?? []) {
    if (part.json) {
      for (const [key, base] of Object.entries(part.json)) {
        const isObject = base !== null && typeof base === 'object';
        const schema: JsonSchema =
          key === 'import_lead_source' || key === 'assigned_to'
            ? { type: 'integer' }
            : isObject
              ? { type: 'object' }
              : text;
        out.push({
          name: `form.${part.name}.${key}`,
          values: bodyValues(schema),
          make: (value) => ({ kind: 'form', part: part.name, key: [key], value }),
        });
        if (isObject) {
          const first = Object.keys(base as object)[0];
          out.push({
            name: `form.${part.name}.${key}.${first}`,
            values: bodyValues(text),
            make: (value) => ({ kind: 'form', part: part.name, key: [key, first], value }),
          });
        }
      }
      out.push({
        name: `form.${part.name}.*`,
        values: UNKNOWN_NAMES.map((name) => ({ cls: 'unknown-field' as const, value: name })),
        make: (value) => ({ kind: 'form', part: part.name, key: [String(value)], value: 1 }),
      });
      continue;
    }
    if (part.file && part.file.contentType !== 'text/csv') continue;
    // Text parts and CSV cells take text; values that are not text are sent as their JSON.
    const textValues = bodyValues(text).filter((value) => typeof value.value === 'string');
    out.push({
      name: `form.${part.name}`,
      values: textValues,
      make: (value) => ({ kind: 'form', part: part.name, value }),
    });
  }
  return out;
}

function headerSlots(): Slot[] {
  return [
    {
      name: 'header.authorization',
      values: BAD_TOKENS.map((value) => ({ cls: 'bad-token' as const, value })),
      make: (value) => ({ kind: 'header', name: 'authorization', value: String(value) }),
    },
  ];
}

/** Every slot of an operation. */
export function slotsOf(op: Operation): Slot[] {
  return [
    ...(op.body ? bodySlots(op.body) : []),
    ...querySlots(op),
    ...pathSlots(op),
    ...formSlots(op),
    ...headerSlots(),
  ];
}

/** Names an error of this operation may name (its fields, parameters and form parts). */
export function knownNames(op: Operation): Set<string> {
  const names = new Set<string>();
  for (const name of Object.keys(op.body?.properties ?? {})) names.add(name);
  for (const param of [...op.query, ...op.pathParams]) names.add(param.name);
  for (const part of op.form ?? []) {
    names.add(part.name);
    for (const key of Object.keys(part.json ?? {})) names.add(key);
  }
  return names;
}

/**
 * `count` hostile cases of an operation: the classes take turns; within a class, every slot gets
 * a value before any slot gets a second one.
 */
export function casesOf(op: Operation, count: number, random: Random): HostileCase[] {
  const rng = random.fork(op.key);
  const slots = rng.shuffle(slotsOf(op));
  const queues = new Map<HostileClass, Array<{ slot: Slot; value: unknown }>>();
  for (const cls of HOSTILE_CLASSES) {
    const perSlot = slots
      .map((slot) => ({ slot, values: rng.shuffle(slot.values.filter((v) => v.cls === cls)) }))
      .filter((entry) => entry.values.length > 0);
    const queue: Array<{ slot: Slot; value: unknown }> = [];
    const longest = Math.max(0, ...perSlot.map((entry) => entry.values.length));
    for (let round = 0; round < longest; round++) {
      for (const entry of perSlot) {
        if (round < entry.values.length)
          queue.push({ slot: entry.slot, value: entry.values[round].value });
      }
    }
    if (queue.length > 0) queues.set(cls, queue);
  }
  const classes = rng.shuffle([...queues.keys()]);
  const out: HostileCase[] = [];
  const position = new Map<HostileClass, number>();
  for (let index = 0; out.length < count && classes.length > 0; index++) {
    const cls = classes[index % classes.length];
    const queue = queues.get(cls) ?? [];
    const at = position.get(cls) ?? 0;
    position.set(cls, at + 1);
    // Past the end of a class, start again with other principals (the values repeat).
    const { slot, value } = queue[at % queue.length];
    out.push({
      op,
      cls,
      slot: slot.name,
      mutation: slot.make(value),
      principal:
        PRINCIPALS[
          (rng.below(PRINCIPALS.length) + Math.floor(at / queue.length)) % PRINCIPALS.length
        ],
      index: out.length,
    });
  }
  return out;
}

/** The classes every slot gets once in the sweep, where the issue found 5xx answers. */
const SWEPT: HostileClass[] = ['nul', 'huge-number', 'bad-date'];

/**
 * The sweep: every body field, query parameter and form part that takes one of the swept classes
 * gets its first value of the class once, as the admin (who gets furthest into the server).
 */
export function sweepCasesOf(op: Operation): HostileCase[] {
  const out: HostileCase[] = [];
  for (const slot of slotsOf(op)) {
    if (slot.name.startsWith('path.') || slot.name.startsWith('header.')) continue;
    for (const cls of SWEPT) {
      const value = slot.values.find((candidate) => candidate.cls === cls);
      if (!value) continue;
      out.push({
        op,
        cls,
        slot: slot.name,
        mutation: slot.make(value.value),
        principal: 'admin',
        index: 10_000 + out.length,
      });
    }
  }
  return out;
}

/** Loose spellings of a real id in each path parameter, as the admin (who may see every record). */
export function looseIdCases(op: Operation, id: number, forms: string[]): HostileCase[] {
  return op.pathParams.flatMap((param) =>
    forms.map((text, index) => ({
      op,
      cls: 'loose-id' as const,
      slot: `path.${param.name}`,
      mutation: { kind: 'path' as const, name: param.name, text, loose: true },
      principal: 'admin' as const,
      index,
    })),
  );
}

/** A short, readable description of a case's change (for reports and failures). */
export function describeMutation(mutation: Mutation): string {
  const shorten = (text: string) =>
    text.length > 60 ? `${text.slice(0, 40)}…(${text.length} chars)` : text;
  switch (mutation.kind) {
    case 'body':
      return `${mutation.path.join('.')}=${shorten(toJson(mutation.value))}`;
    case 'query':
      return `?${shorten(mutation.text)}`;
    case 'path':
      return `{${mutation.name}}=${shorten(mutation.text)}`;
    case 'form':
      return `${[mutation.part, ...(mutation.key ?? [])].join('.')}=${shorten(toJson(mutation.value))}`;
    case 'header':
      return `${mutation.name}: ${shorten(mutation.value)}`;
  }
}
