/**
 * Columns and values of a CSV import, for any resource (the flow: ./rows.ts; what a resource
 * brings: ./resource.ts): which field a column stands for — suggested from the column names (field
 * names, their labels in de/fr/it/en, common aliases such as PLZ, NPA, Natel, plus the resource's
 * own) — and a cell's text as a field value: dates as YYYY-MM-DD or DD.MM.YYYY, yes/no in four
 * languages, enum values by code or label in any language, lead sources by id or name, users by id
 * or e-mail (active, and of a role the field's x-reference-filter allows), sub-brokers by id or
 * name.
 */
import type { FieldModel, ResourceModel } from '../../src/schema/model.ts';
import type { DB } from '../db/index.ts';
import { type ErrorIssue, issue } from '../http/errors.ts';
import { enumLabel, fieldLabel, LANGUAGES, normalizeLabel } from '../customers/labels.ts';
import { principalRights } from '../auth/sessions.ts';

/**
 * Column names (normalised: lower case, letters and digits only) that stand for a field in any
 * resource that has it. A resource adds its own (./resource.ts `aliases`).
 */
export const COMMON_ALIASES: Readonly<Record<string, string>> = {
  vorname: 'firstName',
  prenom: 'firstName',
  nome: 'firstName',
  firstname: 'firstName',
  givenname: 'firstName',
  nachname: 'lastName',
  name: 'lastName',
  familienname: 'lastName',
  nom: 'lastName',
  cognome: 'lastName',
  surname: 'lastName',
  plz: 'zip',
  postleitzahl: 'zip',
  npa: 'zip',
  cap: 'zip',
  postcode: 'zip',
  zipcode: 'zip',
  ort: 'city',
  ortschaft: 'city',
  wohnort: 'city',
  localite: 'city',
  localita: 'city',
  ville: 'city',
  strasse: 'street',
  rue: 'street',
  via: 'street',
  adresse: 'street',
  hausnummer: 'addressNumber',
  nr: 'addressNumber',
  no: 'addressNumber',
  numero: 'addressNumber',
  telefon: 'phoneNumber',
  tel: 'phoneNumber',
  telephone: 'phoneNumber',
  telefono: 'phoneNumber',
  natel: 'phoneNumber',
  handy: 'phoneNumber',
  mobile: 'phoneNumber',
  mobil: 'phoneNumber',
  phone: 'phoneNumber',
  mail: 'email',
  emailadresse: 'email',
  courriel: 'email',
  geburtsdatum: 'dateOfBirth',
  geburtstag: 'dateOfBirth',
  datedenaissance: 'dateOfBirth',
  datadinascita: 'dateOfBirth',
  birthdate: 'dateOfBirth',
  geschlecht: 'gender',
  sexe: 'gender',
  sesso: 'gender',
  firma: 'organization',
  unternehmen: 'organization',
  entreprise: 'organization',
  societe: 'organization',
  ditta: 'organization',
  azienda: 'organization',
  company: 'organization',
  zivilstand: 'maritalStatus',
  etatcivil: 'maritalStatus',
  statocivile: 'maritalStatus',
  nationalitat: 'nationality',
  staatsangehorigkeit: 'nationality',
  nationalite: 'nationality',
  nazionalita: 'nationality',
  land: 'country',
  pays: 'country',
  paese: 'country',
  bewilligung: 'permitType',
  aufenthaltsbewilligung: 'permitType',
  permis: 'permitType',
  permesso: 'permitType',
  bemerkung: 'notes',
  bemerkungen: 'notes',
  notizen: 'notes',
  remarques: 'notes',
  osservazioni: 'notes',
  leadquelle: 'leadSource',
  quelle: 'leadSource',
  source: 'leadSource',
  fonte: 'leadSource',
  empfohlenvon: 'recommendedBy',
  empfehlung: 'recommendedBy',
  recommandepar: 'recommendedBy',
  raccomandatoda: 'recommendedBy',
  betreuer: 'assignedTo',
  berater: 'assignedTo',
  zustandig: 'assignedTo',
  conseiller: 'assignedTo',
  consulente: 'assignedTo',
};

/**
 * Field (camelCase) a column name stands for, or null: a field's name or column, then its label
 * in a language, then an alias (the resource's before the common ones).
 */
export function suggestField(
  model: ResourceModel,
  fields: readonly FieldModel[],
  header: string,
  aliases: Readonly<Record<string, string>> = {},
): string | null {
  const key = normalizeLabel(header);
  if (!key) return null;
  for (const field of fields) {
    if (normalizeLabel(field.name) === key || normalizeLabel(field.column) === key)
      return field.name;
  }
  for (const language of LANGUAGES) {
    for (const field of fields) {
      if (normalizeLabel(fieldLabel(language, model.name, field.name)) === key) return field.name;
    }
  }
  const alias = aliases[key] ?? COMMON_ALIASES[key];
  return alias && fields.some((field) => field.name === alias) ? alias : null;
}

const YES = new Set([
  '1',
  'true',
  'yes',
  'y',
  'ja',
  'j',
  'oui',
  'o',
  'si',
  'sì',
  'x',
  'wahr',
  'vrai',
  'vero',
]);
const NO = new Set(['0', 'false', 'no', 'n', 'nein', 'non', 'falsch', 'faux', 'falso']);

/** A date as YYYY-MM-DD from YYYY-MM-DD, D.M.YYYY or D/M/YYYY; undefined when not a real date. */
export function parseDate(text: string): string | undefined {
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  let year: number;
  let month: number;
  let day: number;
  if (match) [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else {
    match = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(text);
    if (!match) return undefined;
    [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return undefined;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A user as the import sees it. */
export interface ImportUser {
  id: number;
  active: boolean;
  role: string;
  /** The permissions the account holds (its role's and additional ones). */
  permissions: string[];
}

/** Lookups for enum values and references, loaded once per import. */
export interface Lookups {
  enums: Map<string, Map<string, string>>;
  /** Lead source ids by id (as text) and by their names in four languages (normalised). */
  leadSources: Map<string, number>;
  /** A lead source's visibleRoles by id. */
  sourceRoles: Map<number, string[]>;
  /** Users by id (as text) and by e-mail address (lower case). */
  users: Map<string, ImportUser>;
  subBrokers: Map<string, number>;
}

function enumLookup(field: FieldModel): Map<string, string> {
  const values = field.enumValues ?? [];
  const map = new Map<string, string>();
  for (const value of values) {
    map.set(normalizeLabel(value), value);
    for (const language of LANGUAGES) {
      const label = enumLabel(language, field.enumName ?? '', value);
      if (label !== value) map.set(normalizeLabel(label), value);
    }
  }
  return map;
}

const rolesOf = (value: unknown): string[] => {
  const list: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(list) ? list.map(String) : [];
};

export async function loadLookups(db: DB, model: ResourceModel): Promise<Lookups> {
  const enums = new Map<string, Map<string, string>>();
  for (const field of model.fields) if (field.enumValues) enums.set(field.name, enumLookup(field));
  const leadSources = new Map<string, number>();
  const sourceRoles = new Map<number, string[]>();
  for (const row of await db
    .selectFrom('lead_sources')
    .select(['id', 'name_de', 'name_fr', 'name_it', 'name_en', 'visible_roles'])
    .execute()) {
    leadSources.set(String(row.id), Number(row.id));
    sourceRoles.set(Number(row.id), rolesOf(row.visible_roles));
    for (const name of [row.name_de, row.name_fr, row.name_it, row.name_en]) {
      if (typeof name === 'string' && name.trim())
        leadSources.set(normalizeLabel(name), Number(row.id));
    }
  }
  const users = new Map<string, ImportUser>();
  for (const row of await db
    .selectFrom('users as u')
    .leftJoin('external_users as e', 'e.user_id', 'u.id')
    .select([
      'u.id',
      'u.email',
      'u.is_active',
      'u.role',
      'u.additional_permissions',
      'e.sub_broker_id',
    ])
    .execute()) {
    const entry = {
      id: Number(row.id),
      active: row.is_active !== false,
      role: String(row.role),
      permissions: principalRights(row.role, row.additional_permissions, row.sub_broker_id)
        .permissions,
    };
    users.set(String(row.id), entry);
    users.set(String(row.email).toLowerCase(), entry);
  }
  const subBrokers = new Map<string, number>();
  for (const row of await db.selectFrom('sub_brokers').select(['id', 'name']).execute()) {
    subBrokers.set(String(row.id), Number(row.id));
    subBrokers.set(normalizeLabel(String(row.name)), Number(row.id));
  }
  return { enums, leadSources, sourceRoles, users, subBrokers };
}

/**
 * Whether a user may be chosen for a field: the roles of its x-reference-filter (the picker's and
 * the CRUD write's rule; `customers.assignedTo` and `leads.assignedTo` leave out ADMIN, EMPLOYEE
 * and PARTNER accounts). Active is checked apart (its own message).
 */
export function userSuitable(field: FieldModel | undefined, user: ImportUser): boolean {
  const roles = field?.referenceFilter?.role;
  if (roles === undefined) return true;
  return (Array.isArray(roles) ? roles : [roles]).map(String).includes(user.role);
}

/** A cell's text as the field's value, or the problem to report. */
export function convert(
  field: FieldModel,
  text: string,
  lookups: Lookups,
): { value?: unknown; error?: ErrorIssue } {
  switch (field.kind) {
    case 'boolean': {
      const key = text.toLowerCase();
      if (YES.has(key)) return { value: true };
      if (NO.has(key)) return { value: false };
      return { error: issue('notYesNo', { value: text }) };
    }
    case 'date': {
      const value = parseDate(text);
      return value ? { value } : { error: issue('notADate', { value: text }) };
    }
    case 'enum': {
      const value = lookups.enums.get(field.name)?.get(normalizeLabel(text));
      return value ? { value } : { error: issue('unknownValue', { value: text }) };
    }
    case 'enumArray': {
      const out: string[] = [];
      for (const part of text
        .split(/[,;/|]/)
        .map((item) => item.trim())
        .filter(Boolean)) {
        const value = lookups.enums.get(field.name)?.get(normalizeLabel(part));
        if (!value) return { error: issue('unknownValue', { value: part }) };
        if (!out.includes(value)) out.push(value);
      }
      return { value: out };
    }
    case 'reference': {
      if (field.reference === 'lead-sources') {
        const id = lookups.leadSources.get(/^\d+$/.test(text) ? text : normalizeLabel(text));
        return id ? { value: id } : { error: issue('unknownLeadSource', { value: text }) };
      }
      if (field.reference === 'users') {
        const user = lookups.users.get(text.toLowerCase());
        if (!user) return { error: issue('unknownUser', { value: text }) };
        if (!user.active) return { error: issue('userDisabled', { value: text }) };
        return userSuitable(field, user)
          ? { value: user.id }
          : { error: issue('unsuitableReference', { ids: text }) };
      }
      if (field.reference === 'sub-brokers') {
        const id = lookups.subBrokers.get(/^\d+$/.test(text) ? text : normalizeLabel(text));
        return id ? { value: id } : { error: issue('unknownSubBroker', { value: text }) };
      }
      return /^\d{1,9}$/.test(text)
        ? { value: Number(text) }
        : { error: issue('notAnId', { value: text }) };
    }
    default:
      return { value: text };
  }
}
