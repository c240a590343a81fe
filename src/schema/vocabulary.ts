/**
 * The extension vocabulary of our entity schemas (`schemas/<resource>.schema.json`).
 * Every keyword is declared to ajv (see `declareVocabulary`) so strict mode stays on.
 * docs/ARCHITECTURE.md §"Schema vocabulary" explains each one with examples.
 */
import type { Ajv, FuncKeywordDefinition } from 'ajv';

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
}

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
};

/** Declare the vocabulary to an ajv instance (annotation-only keywords, no validation effect). */
export function declareVocabulary(ajv: Ajv): void {
  for (const keyword of [...ROOT_KEYWORDS, ...PROPERTY_KEYWORDS]) {
    const definition: FuncKeywordDefinition = {
      keyword,
      schemaType: KEYWORD_TYPES[keyword] as FuncKeywordDefinition['schemaType'],
    };
    ajv.addKeyword(definition);
  }
}
