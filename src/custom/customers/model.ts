/**
 * The customer schema as the screens use it: fields by `x-group` (the sections of the form and of
 * the overview), and the rules the browser checks before the server does (the server's are in
 * server/customers/rules.ts; the messages here are translation keys).
 */
import { getStoredUser } from '../../auth/session.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { getModel } from '../../resources/registry.ts';
import type { FieldModel } from '../../schema/model.ts';

export const customerModel = () => getModel('customers');
export const memberModel = () => getModel('household-members');
export const documentModel = () => getModel('documents');

/** Sections in order; `person` is for people only, `company` for companies only. */
export const GROUPS = [
  'kind',
  'company',
  'name',
  'person',
  'address',
  'contact',
  'sales',
  'notes',
] as const;
export type Group = (typeof GROUPS)[number];

/**
 * The schema lists partnershipDate before dateOfBirth (the server checks the pair on the merged
 * record, and the generic tests patch fields in schema order); people read the birth date first.
 */
export const birthDateFirst = (fields: FieldModel[]): FieldModel[] =>
  [...fields].sort((a, b) => Number(b.name === 'dateOfBirth') - Number(a.name === 'dateOfBirth'));

export const fieldsOf = (group: Group): FieldModel[] =>
  birthDateFirst(
    customerModel().fields.filter((field) => field.schema['x-group'] === group && !field.readOnly),
  );

/** Inputs side by side, each at least 240 px wide (react-admin's inputs fill their cell). */
export const INPUT_GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
  columnGap: 2,
  width: '100%',
} as const;

/** Fields only the back office sets (a consultant's customers are theirs; the server insists). */
export const BACK_OFFICE_FIELDS = new Set(['assignedTo', 'subBrokerId']);

export const isBackOffice = (): boolean => {
  const user = getStoredUser();
  return user?.routeSet === 'admin';
};

export const canMerge = (): boolean =>
  ['ADMIN', 'BACKOFFICE'].includes(getStoredUser()?.role ?? '');

const FOUR_DIGIT_ZIP = new Set(['CH', 'LI']);

const today = (): string =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Zurich',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

/** A customer as the forms and lists hold it: possibly incomplete (a new record, a list row). */
export type CustomerValues = Partial<ApiRecord<'customers'>>;
/** The person fields customers and household members share. */
type PersonValues = Partial<
  Pick<
    ApiRecord<'household-members'>,
    'dateOfBirth' | 'partnershipDate' | 'permitType' | 'nationality'
  >
>;

const filled = (value: unknown): value is string =>
  typeof value === 'string' && value.trim() !== '';

/** Date rules shared by customers and household members. */
export function validatePerson(values: PersonValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const birth = values.dateOfBirth;
  const partnership = values.partnershipDate;
  if (filled(birth) && birth > today())
    errors.dateOfBirth = 'app.customers.validation.birthInFuture';
  if (filled(partnership) && filled(birth) && partnership < birth)
    errors.partnershipDate = 'app.customers.validation.partnershipBeforeBirth';
  if (filled(values.permitType) && values.nationality === 'CH')
    errors.permitType = 'app.customers.validation.permitForSwiss';
  return errors;
}

export function validateCustomer(values: CustomerValues): Record<string, string> {
  const errors = validatePerson(values);
  if (
    filled(values.zip) &&
    filled(values.country) &&
    FOUR_DIGIT_ZIP.has(values.country) &&
    !/^[1-9][0-9]{3}$/.test(values.zip.trim())
  )
    errors.zip = 'app.customers.validation.zip';
  // A company needs its name (first and last name then name its contact, if any); a person needs
  // both names. The server's rule (server/customers/rules.ts) is the same.
  if (values.isCompany === true) {
    if (!filled(values.organization))
      errors.organization = 'app.customers.validation.organizationRequired';
  } else {
    if (!filled(values.firstName)) errors.firstName = 'app.customers.validation.firstNameRequired';
    if (!filled(values.lastName)) errors.lastName = 'app.customers.validation.lastNameRequired';
  }
  return errors;
}

/** A lead source's name in the language (else German, else its id), for the import and export. */
export function leadSourceName(source: ApiRecord<'lead-sources'>, locale: string): string {
  const key = `name${locale.charAt(0).toUpperCase()}${locale.slice(1)}`;
  return String(source[key as keyof typeof source] || source.nameDe || `#${source.id}`);
}

/** Name shown for a customer (the schema's representation: organization, else first and last name). */
export function customerName(
  record: Pick<CustomerValues, 'organization' | 'firstName' | 'lastName'> | undefined,
): string {
  if (!record) return '';
  if (filled(record.organization)) return record.organization;
  return [record.firstName, record.lastName].filter(filled).join(' ');
}
