/**
 * The catalogue of hostile values, by payload class and by the type a schema expects: what a
 * careless client or an attacker sends instead of a valid value. Body values are JSON values (a
 * `RawJson` is written into the body as is, for numbers JSON.stringify cannot express); query and
 * path values are already percent-encoded URL text.
 */
import type { JsonSchema } from '../../../src/schema/model.ts';

export const HOSTILE_CLASSES = [
  'nul',
  'huge-number',
  'negative',
  'fraction',
  'nan-ish',
  'bad-date',
  'unicode',
  'long-text',
  'wrong-type',
  'unknown-field',
  'loose-id',
  'bad-query',
  'bad-token',
] as const;
export type HostileClass = (typeof HOSTILE_CLASSES)[number];

/** A JSON literal written as is (`9007199254740993`, `1e400`, `-0`). */
export class RawJson {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export interface HostileValue {
  cls: HostileClass;
  value: unknown;
}

/** JSON text of a value that may hold RawJson literals. */
export function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([key, child]) => `${JSON.stringify(key)}:${toJson(child)}`)
      .join(',')}}`;
  }
  // JSON.stringify escapes lone surrogates (\ud800), which is the point of some values.
  return JSON.stringify(value) ?? 'null';
}

/** The type a schema node expects (OpenAPI 3.0 uses `nullable`, JSON Schema type lists). */
export function typeOf(schema: JsonSchema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  if (schema.properties) return 'object';
  return undefined;
}

const NUL_TEXT = ['a\u0000b', '\u0000', 'probe\u0000\u0000', '\u0000@example.ch'];
const UNICODE_TEXT = [
  '\ud800',
  'a\udfffb',
  '\u202eexe.pdf',
  '👩‍👩‍👧‍👦🇨🇭',
  'e\u0301\u0301\u0301\u0301',
  '\ufeffbom',
  'zero\u200bwidth\u2060',
  'line\u2028break\u0085',
  '𝕳𝖔𝖘𝖙𝖎𝖑𝖊',
  'مرحبا بالعالم',
  '\u0007\u001b[31mred',
];
const LONG_TEXT = ['x'.repeat(10_000), '😀'.repeat(5_000), 'ä'.repeat(10_001)];
export const BAD_DATES = [
  '0000-01-01',
  '2026-02-31',
  '99999-01-01',
  '2026-13-01',
  '2026-00-10',
  '-0001-01-01',
  '2026-1-1',
  '1900-02-29',
];
const BAD_DATE_TIMES = [
  '0000-01-01T00:00:00Z',
  '2026-02-31T10:00:00Z',
  '99999-01-01T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-01-01T24:61:00Z',
  '2026-01-01T00:00:00+25:00',
  '0000-01-01T00:00:00.000Z',
];
const BAD_TIMES = ['24:00', '23:60', '00:00:61', '99:99'];
const HUGE_INTEGERS: unknown[] = [
  2_147_483_648,
  -2_147_483_649,
  3_000_000_000,
  4_294_967_296,
  1e20,
  new RawJson('9007199254740993'),
  new RawJson('99999999999999999999999'),
  new RawJson('1e400'),
];
const HUGE_NUMBERS: unknown[] = [
  1e308,
  -1e308,
  2 ** 53 + 2,
  new RawJson('1e400'),
  new RawJson('-1e400'),
];

const isDateLike = (schema: JsonSchema) =>
  schema.format === 'date' || schema.format === 'date-time' || schema.format === 'time';

function badDatesFor(schema: JsonSchema): string[] {
  if (schema.format === 'date-time') return BAD_DATE_TIMES;
  if (schema.format === 'time') return BAD_TIMES;
  return BAD_DATES;
}

const values = (cls: HostileClass, list: readonly unknown[]): HostileValue[] =>
  list.map((value) => ({ cls, value }));

/** Hostile JSON values for a body field of this schema. */
export function bodyValues(schema: JsonSchema): HostileValue[] {
  switch (typeOf(schema)) {
    case 'string':
      return [
        ...values('nul', NUL_TEXT),
        ...values('unicode', UNICODE_TEXT),
        ...values('long-text', LONG_TEXT),
        ...(isDateLike(schema) ? values('bad-date', badDatesFor(schema)) : []),
        ...values('wrong-type', [
          12345,
          true,
          { value: 'x' },
          ['x'],
          ...(nullable(schema) ? [] : [null]),
        ]),
      ];
    case 'integer':
      return [
        ...values('huge-number', HUGE_INTEGERS),
        ...values('negative', [-1, 0, -2_147_483_648]),
        ...values('fraction', [1.5, 0.5, new RawJson('1.0000000000000002')]),
        ...values('nan-ish', ['NaN', 'Infinity', '1e3', '0x10', new RawJson('-0')]),
        ...values('nul', ['1\u0000']),
        ...values('wrong-type', [[1], {}, '12', true, ...(nullable(schema) ? [] : [null])]),
      ];
    case 'number':
      return [
        ...values('huge-number', HUGE_NUMBERS),
        ...values('negative', [-1, -0.01]),
        ...values('fraction', [1e-320, 0.1 + 0.2]),
        ...values('nan-ish', ['NaN', 'Infinity', '-Infinity', '1e3']),
        ...values('wrong-type', [[1], {}, '12.5', false]),
      ];
    case 'boolean':
      return [
        ...values('wrong-type', ['true', 'yes', 1, 0, [], {}]),
        ...values('nul', ['true\u0000']),
      ];
    case 'array': {
      const item = schema.items ?? {};
      const itemValues = bodyValues(item).filter((value) => value.cls !== 'long-text');
      return [
        ...values('wrong-type', ['x', { 0: 1 }, 1, [[]]]),
        ...itemValues.map(({ cls, value }) => ({ cls, value: [value] })),
        { cls: 'long-text', value: Array.from({ length: 10_000 }, (_, index) => index + 1) },
      ];
    }
    case 'object':
      return values('wrong-type', ['x', [], 1, true]);
    default:
      return [...values('nul', NUL_TEXT), ...values('wrong-type', [{ value: 'x' }])];
  }
}

function nullable(schema: JsonSchema): boolean {
  return (
    schema.nullable === true ||
    (Array.isArray(schema.type) && schema.type.includes('null')) ||
    Boolean(schema.enum?.includes(null))
  );
}

/** Percent-encodes a text for a URL (lone surrogates, which encodeURIComponent refuses, too). */
export function encodeText(text: string): string {
  return [...text]
    .map((char) => {
      const code = char.codePointAt(0) ?? 0;
      if (code >= 0xd800 && code <= 0xdfff) {
        // A lone surrogate as its three UTF-8-like bytes (CESU-8): not valid UTF-8.
        return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
          .map((byte) => `%${byte.toString(16).toUpperCase()}`)
          .join('');
      }
      return encodeURIComponent(char);
    })
    .join('');
}

/** Hostile URL values (already encoded) for a query parameter of this schema. */
export function queryValues(schema: JsonSchema): HostileValue[] {
  const type = typeOf(schema) === 'array' ? typeOf(schema.items ?? {}) : typeOf(schema);
  const item = typeOf(schema) === 'array' ? (schema.items ?? {}) : schema;
  const text = (cls: HostileClass, list: readonly string[]) =>
    list.map((value) => ({ cls, value: encodeText(value) }));
  const common = [
    ...text('nul', ['a\u0000b', '\u0000', '1\u0000']),
    ...text('unicode', ['\ud800', '\u202e1', '👩‍👩‍👧‍👦', 'e\u0301\u0301']),
    { cls: 'unicode' as const, value: '%FF%FE' },
    { cls: 'unicode' as const, value: '%C0%AF' },
    ...text('long-text', ['x'.repeat(10_000)]),
  ];
  switch (type) {
    case 'integer':
    case 'number':
      return [
        ...common,
        ...text('huge-number', ['2147483648', '-2147483649', '99999999999999999999', '1e400']),
        ...text('negative', ['-1', '0']),
        ...text('fraction', ['1.5', '0.000001']),
        ...text('nan-ish', ['NaN', 'Infinity', '1e3', '0x10', ' 1', '+1', '01', '']),
        ...text('wrong-type', ['abc', 'true', '[1]', '{}']),
      ];
    case 'boolean':
      return [...common, ...text('wrong-type', ['yes', '2', 'TRUE ', '[]', ''])];
    default:
      return [
        ...common,
        ...(isDateLike(item) ? text('bad-date', badDatesFor(item)) : []),
        ...text('wrong-type', ['[]', '{}', '']),
      ];
  }
}

/** Hostile values of an `{id}` path segment that can name no record (encoded). */
export const PATH_ID_VALUES: HostileValue[] = [
  ...values('nul', ['1%00', '%00', 'a%00b']),
  ...values('huge-number', ['2147483648', '4294967296', '99999999999999999999', '1e99']),
  ...values('negative', ['-1', '0', '-0']),
  ...values('fraction', ['1.5', '0.5']),
  ...values('nan-ish', ['NaN', 'Infinity', 'abc', 'null', 'undefined', 'true']),
  ...values('unicode', ['%ED%A0%80', '%E2%80%AE1', '%F0%9F%98%80', '%FF', '%D9%A1']),
  ...values('long-text', ['9'.repeat(200), 'x'.repeat(5_000)]),
  // Loose forms of an id no record has (2,000,000,000): the strict rule refuses them, else 404.
  ...values('loose-id', ['0x77359400', '%2B2000000000', '%202000000000', '2e9', '02000000000']),
  ...values('wrong-type', ['%5B1%5D', '1,2', '1;2', '%7B%7D', '..%2F1']),
];

/** Loose spellings of a real id: each would act on that record if read as a number. */
export function looseIds(id: number): string[] {
  const forms = [
    `%20${id}`,
    `${id}%20`,
    `%09${id}`,
    `0x${id.toString(16)}`,
    `0o${id.toString(8)}`,
    `0b${id.toString(2)}`,
    `${id}e0`,
    `${id}.0`,
    `0${id}`,
    `00${id}`,
    `%2B${id}`,
    `+${id}`,
    `${id}%00`,
  ];
  if (id % 10 === 0) forms.push(`${id / 10}e1`);
  return forms;
}

/** Bearer tokens and authorization headers that are not a session. */
export const BAD_TOKENS: string[] = [
  `Bearer ${'x'.repeat(5_000)}`,
  'Bearer \u00ff\u00fe',
  'Bearer',
  'Bearer  ',
  'Basic YWRtaW5AZGVtby5nc2NybS5jaDpUZXN0LVBhc3N3MHJkIQ==',
  'Bearer a b c',
  'bearer 00000000000000000000000000000000000000000000',
];

/** Field names no schema has (an unknown field must be refused, naming it). */
export const UNKNOWN_NAMES = ['unknown_field', 'is_admin', 'password_hash', 'constructor'];
