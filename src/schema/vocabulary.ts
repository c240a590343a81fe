/**
 * The extension vocabulary of our entity schemas (`schemas/<resource>.schema.json`).
 * Every keyword is declared to ajv (see `declareVocabulary`) so strict mode stays on.
 * docs/ARCHITECTURE.md §"Schema vocabulary" explains each one with examples.
 */
import type { Ajv, FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';

export type { AccessRule, Permission } from './permissions.ts';
import type { AccessRule } from './permissions.ts';

/** Root keyword `x-resource`: how the resource is presented and searched. */
export interface XResource {
  /** Field shown when another record refers to this one. */
  recordRepresentation?: string;
  /**
   * Templates shown instead, when the text needs several fields: the first whose `{field}`s are
   * all filled wins (customers: `["{organization}", "{firstName} {lastName}"]`).
   */
  representation?: string[];
  /** Prefix of per-language name fields (`name` → nameDe, nameEn, nameFr, nameIt): shown in the user's language. */
  localizedName?: string;
  /** Fields the `search` query parameter looks in (case-insensitive substring). */
  search?: string[];
  /** Default list order. */
  defaultSort?: { field: string; order: 'ASC' | 'DESC' };
  /**
   * `false`: the table's inserts are not copied to the audit log, only its updates and deletes —
   * for an append-only ledger whose every row is its own record of its making (who, when, why),
   * written in bulk (commission-lines: a recompute writes hundreds of thousands).
   */
  auditInserts?: boolean;
}

/** Root keyword `x-permissions`: the access rule of each action (the server enforces it). */
export interface XPermissions {
  read: AccessRule;
  create: AccessRule;
  update: AccessRule;
  delete: AccessRule;
}

/** Property keywords. */
export interface XProperty {
  /** Resource this integer (or list of integers) refers to by id. */
  'x-reference'?: string;
  /** Shown as a column in the generated list. */
  'x-list'?: boolean;
  /** Offered as a list filter in the UI and accepted as a query filter by the API. */
  'x-filter'?: boolean;
  /** Input/field variant: textarea, image, password. */
  'x-widget'?: 'textarea' | 'image' | 'password' | 'chf';
  /** Name of the enum for translation keys `enums.<name>.<value>`. */
  'x-enum'?: string;
  /** Translation prefix for the value itself (`<prefix>.<value>`), e.g. product keys. */
  'x-translate'?: string;
  /** Unique index on the column. */
  'x-unique'?: boolean;
  /** Plain index on the column. */
  'x-index'?: boolean;
  /** Sorting by this field is not offered (default: scalars sortable). */
  'x-sortable'?: boolean;
  /** Marks the field holding the owning user (a consultant sees only records they own). */
  'x-owner'?: boolean;
  /** Marks the reference whose record decides visibility (a household member follows its customer). */
  'x-owner-via'?: boolean;
  /** Marks the reference to sub-brokers whose external users see the record (customers.subBrokerId). */
  'x-sub-broker'?: boolean;
  /** Section of a hand-written form the field belongs to (users: user, entity, assignment). */
  'x-group'?: string;
  /** The text is a link, of this kind only (see `isSafeUrl`); the server refuses others (422). */
  'x-url'?: UrlKind;
  /**
   * On an `x-reference`: only records matching these list filters of the referenced resource may
   * be chosen (`{ "isActive": true, "role": ["CONSULTANT", "BACKOFFICE"] }`: field name → value, or
   * a list of values of which one must match). The picker asks the list with them; the server
   * refuses another record on write (422 naming the field). Keys must be `x-filter` fields of the
   * referenced resource (checked when the models are loaded: `referenceFilterProblems`).
   */
  'x-reference-filter'?: ReferenceFilter;
}

/** A value an `x-reference-filter` condition compares with: one value, or a list (any of). */
export type ReferenceFilterValue = string | number | boolean | (string | number)[];

/** The conditions of `x-reference-filter`, by field name (camelCase) of the referenced resource. */
export type ReferenceFilter = Record<string, ReferenceFilterValue>;

/**
 * Kinds of links a URL field may hold:
 * - `web`: an absolute `https:` or `http:` address with a host (no user name or password in it);
 * - `app`: a path of this web app, starting with a single `/` (`/admin/customers/1`);
 * - `web-or-app`: either.
 * Nothing else — not `javascript:`, `data:`, `vbscript:`, nor a protocol-relative `//host/…`,
 * which a browser would open on another site.
 */
export const URL_KINDS = ['web', 'app', 'web-or-app'] as const;
export type UrlKind = (typeof URL_KINDS)[number];

/**
 * Characters no link of ours contains: controls and spaces (browsers drop tabs and newlines inside
 * a URL, so `/\t/evil.example` would become `//evil.example`) and backslashes (read as `/`).
 */
const UNSAFE_URL_CHARACTERS =
  // Control characters are exactly what this pattern is for.
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff\\]/;

/** Base of the check of app paths; any origin works, it only has to stay the same. */
const APP_ORIGIN = 'http://app.invalid';

function isWebUrl(text: string): boolean {
  if (!/^https?:\/\/[^/?#]/i.test(text)) return false;
  try {
    const url = new URL(text);
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      url.hostname !== '' &&
      url.username === '' &&
      url.password === ''
    );
  } catch {
    return false;
  }
}

function isAppPath(text: string): boolean {
  if (!/^\/(?![/\\])/.test(text)) return false;
  try {
    return new URL(text, APP_ORIGIN).origin === APP_ORIGIN;
  } catch {
    return false;
  }
}

/**
 * Is the text a link of the kind (`x-url`)? The server refuses other values; the browser shows a
 * stored value as a link only when this holds (values stored before the rule).
 */
export function isSafeUrl(text: unknown, kind: UrlKind): boolean {
  if (typeof text !== 'string' || text === '' || UNSAFE_URL_CHARACTERS.test(text)) return false;
  if (kind === 'web') return isWebUrl(text);
  if (kind === 'app') return isAppPath(text);
  return isWebUrl(text) || isAppPath(text);
}

/** The sentence of a refused link (errors name the field; the browser translates by pattern). */
export const URL_MESSAGES: Record<UrlKind, string> = {
  web: 'must be a link starting with https:// or http://',
  app: 'must be a path of this app starting with /',
  'web-or-app': 'must be a link starting with https:// or http://, or a path starting with /',
};

export const ROOT_KEYWORDS = ['x-resource', 'x-permissions'] as const;
export const PROPERTY_KEYWORDS = [
  'x-reference',
  'x-list',
  'x-filter',
  'x-widget',
  'x-enum',
  'x-translate',
  'x-unique',
  'x-index',
  'x-sortable',
  'x-owner',
  'x-owner-via',
  'x-sub-broker',
  'x-group',
  'x-url',
  'x-reference-filter',
] as const;

const KEYWORD_TYPES: Record<string, string | string[]> = {
  'x-resource': 'object',
  'x-permissions': 'object',
  'x-reference': 'string',
  'x-list': 'boolean',
  'x-filter': 'boolean',
  'x-widget': 'string',
  'x-enum': 'string',
  'x-translate': 'string',
  'x-unique': 'boolean',
  'x-index': 'boolean',
  'x-sortable': 'boolean',
  'x-owner': 'boolean',
  'x-owner-via': 'boolean',
  'x-sub-broker': 'boolean',
  'x-group': 'string',
  'x-url': 'string',
  'x-reference-filter': 'object',
};

/** The shape of an `x-reference-filter` value, checked by ajv when a schema is compiled. */
const REFERENCE_FILTER_META = {
  type: 'object',
  minProperties: 1,
  additionalProperties: {
    anyOf: [
      { type: ['string', 'number', 'boolean'] },
      { type: 'array', minItems: 1, items: { type: ['string', 'number'] } },
    ],
  },
};

/** `x-url` validates: a string that is not a link of its kind fails with URL_MESSAGES[kind]. */
const checkUrl: SchemaValidateFunction = (kind: UrlKind, data: unknown) => {
  if (typeof data !== 'string' || isSafeUrl(data, kind)) return true;
  checkUrl.errors = [{ keyword: 'x-url', message: URL_MESSAGES[kind], params: { kind } }];
  return false;
};

/**
 * Declare the vocabulary to an ajv instance. Every keyword but `x-url` is an annotation (no
 * validation effect); `x-url` refuses a string that is not a link of its kind (`isSafeUrl`).
 * `x-reference-filter` has its shape checked here; records are checked by the CRUD write (it needs
 * the database).
 */
export function declareVocabulary(ajv: Ajv): void {
  for (const keyword of [...ROOT_KEYWORDS, ...PROPERTY_KEYWORDS]) {
    const definition: FuncKeywordDefinition = {
      keyword,
      schemaType: KEYWORD_TYPES[keyword] as FuncKeywordDefinition['schemaType'],
    };
    if (keyword === 'x-url') {
      definition.type = 'string';
      definition.metaSchema = { enum: [...URL_KINDS] };
      definition.errors = true;
      definition.validate = checkUrl;
    }
    if (keyword === 'x-reference-filter') definition.metaSchema = REFERENCE_FILTER_META;
    ajv.addKeyword(definition);
  }
}
