/**
 * The API's error vocabulary (DESIGN.md §7), shared by the server and the browser. Every 4xx
 * answer names what went wrong by a code with arguments; the server writes the English sentence
 * below for API clients and logs, and sends the code as the translation key `app.errors.<code>`
 * with its arguments, which the browser shows in the user's language (locales/*.json). Adding an
 * error: a code here (its English sentence, `{{name}}` for an argument) and `app.errors.<code>` in
 * the four locale files — a test checks that every code is translated in every language.
 */

export const ERROR_TEXTS = {
  // A field's value, as the JSON schema checks it.
  required: 'is required',
  invalid: 'is invalid',
  maxLength: 'must NOT have more than {{limit}} characters',
  minLength: 'must NOT have fewer than {{limit}} characters',
  maxItems: 'must NOT have more than {{limit}} items',
  minItems: 'must NOT have fewer than {{limit}} items',
  duplicateItems: 'must NOT have duplicate items',
  maximum: 'must be <= {{limit}}',
  minimum: 'must be >= {{limit}}',
  exclusiveMaximum: 'must be < {{limit}}',
  exclusiveMinimum: 'must be > {{limit}}',
  email: 'must match format "email"',
  date: 'must match format "date"',
  dateTime: 'must match format "date-time"',
  uri: 'must match format "uri"',
  phone: 'must be a phone number, e.g. +41 79 123 45 67 or 079 123 45 67',
  format: 'must match format "{{format}}"',
  pattern: 'must match pattern "{{pattern}}"',
  enum: 'must be one of: {{values}}',
  type: 'must be {{type}}',
  unknownField: 'is not a known field',
  readOnly: 'is read-only',
  nul: 'must not contain the character NUL (\\u0000)',
  integerText: 'must be a whole number in decimal digits',
  numberText: 'must be a number in decimal digits',
  urlWeb: 'must be a link starting with https:// or http://',
  urlApp: 'must be a path of this app starting with /',
  urlWebOrApp: 'must be a link starting with https:// or http://, or a path starting with /',
  notJson: 'is not valid JSON',

  // A field's value, as the records in the database check it.
  unique: 'is already used by another record',
  reference: 'refers to a record that does not exist',
  unknownReference: 'refers to unknown {{resource}}: {{ids}}',
  disabledUser: 'refers to a disabled user',
  unsuitableReference: 'refers to a record that cannot be chosen here: {{ids}}',
  backOfficeOnly: 'can only be set by the back office',
  notYours: 'cannot be changed by you',
  otherOwner: 'cannot be changed to another user',
  otherSubBroker: 'cannot be changed to another sub-broker',
  needsResource: 'needs resource',
  notBeforeFrom: 'must not be before from',
  notBeforeStart: 'must not be before the start date',
  notInFuture: 'must not be in the future',
  notBefore1900: 'must be on or after 1900-01-01',
  notBeforeBirth: 'must not be before the date of birth',
  // Contracts (server/contracts/rules.ts).
  notOfProduct: 'is not a sub-product of the chosen product',
  notOfSubProduct: 'is not a variant of the chosen sub-product',
  notOffered: 'does not offer the chosen product',
  onlyForFinance: 'is only for finance products (loan, mortgage, …)',
  notOfCustomer: 'does not belong to the customer',
  // Appointments and reminders (server/appointments/, server/reminders/).
  endBeforeStart: 'must be after the start',
  notSameDay: 'must be on the same day as the start',
  notInPast: 'must not be in the past',
  statusTransition: 'cannot change from “{{from}}” to “{{to}}”',
  setByFeedback: 'is set by the feedback',
  feedbackGiven: 'This appointment already has its feedback.',
  feedbackNotPossible: 'A cancelled appointment gets no feedback.',
  feedbackTooEarly: 'Feedback can be given once the appointment has begun.',
  feedbackStatus: 'does not fit whether the appointment took place',
  reopenByAssigner: 'Only the one who set the reminder (or the back office) may reopen it.',
  notAtThatTime: 'must be between 00:00 and 23:59',
  noPermitForSwiss: 'must be empty for a Swiss national (permits are for foreigners)',
  swissZip: 'must be 4 digits (1000–9999) for an address in {{country}}',
  companyName: 'is required for a company',
  personName: 'is required for a person',
  notItself: 'cannot be the customer itself',
  notSelf: 'cannot be the user themselves',
  notBelowItself: 'cannot be the sub-broker itself or one below it',
  otherCustomer: 'must be another customer than the one that stays',
  roleRights: 'You cannot give a role with rights you do not hold.',
  ownRole: 'You cannot change your own role.',
  ownPermissions: 'You cannot change your own permissions.',
  ownDisable: 'You cannot disable your own account.',
  roleSeesMore: 'You cannot give a role that sees more than your own.',
  grantPermissions: 'You cannot grant permissions you do not hold: {{permissions}}.',
  rolePermissions: 'You cannot give a role with permissions you do not hold: {{permissions}}.',
  resetToken: 'is invalid, already used or expired',
  resetLink: 'This link is invalid, was already used or has expired. Please ask for a new one.',
  newPasswordInvalid: 'The new password is not valid.',
  importOptions: 'The import options are not valid.',
  wrongPassword: 'is not correct',
  samePassword: 'must differ from the current password',
  passwordLength: 'must have at least {{min}} characters',
  passwordTooLong: 'must have at most {{max}} characters',
  passwordUpper: 'must contain an uppercase letter',
  passwordLower: 'must contain a lowercase letter',
  passwordSymbol: 'must contain a symbol (a character other than letters, digits and _)',
  passwordCommon: 'is too easy to guess (a common password or a variation of one)',
  passwordPersonal: 'must not be made of your name or e-mail address',
  passwordsDiffer: 'does not match the new password',
  unknownLanguage: 'is not a known language: {{value}}',
  languageUnknown: 'Unknown language.',
  appearsTwice: 'appears more than once',
  unknownPlaceholders: 'uses unknown placeholders: {{placeholders}}',
  keyMismatch: 'must be the key of translation {{id}} ({{key}})',
  notAColumn: 'is not a column of the file',
  notImportable: '"{{field}}" is not a field that can be imported',
  mappedTwice: '"{{field}}" is already filled from column "{{column}}"',
  rowLength: 'has {{values}} values, the header line has {{columns}} columns',
  notYesNo: '"{{value}}" is not yes or no',
  notADate: '"{{value}}" is not a date (YYYY-MM-DD or DD.MM.YYYY)',
  unknownValue: '"{{value}}" is not a known value',
  unknownLeadSource: '"{{value}}" is not a known lead source',
  unknownUser: '"{{value}}" is not a known user (id or email)',
  userDisabled: '"{{value}}" is a disabled user',
  unknownSubBroker: '"{{value}}" is not a known sub-broker',
  notAnId: '"{{value}}" is not an id',
  requiredColumn: 'no column is mapped to {{field}} (required)',
  nameColumns:
    'no column is mapped to the name: firstName and lastName (people) or organization (companies)',
  rowsHaveErrors: '{{count}} rows have errors',
  // The CSV import's choices for likely duplicates (server/customers/import-duplicates.ts).
  notARow: 'is not a row of the file (it has {{rows}})',
  mergeWithoutMatch: 'cannot be merge: the row looks like no existing customer',
  notAMatch: 'is not a customer this row looks like: {{id}}',
  customerGone: 'customer {{id}} no longer exists',

  // Leads (server/leads/).
  leadCloseStatusRequired: 'is required to close a lead',
  leadCloseStatusOpen: 'is set only on a closed lead',
  leadAppointmentNeeded: "is set by booking the appointment from the lead (appointments' leadId)",
  staleBoardPosition: 'lead {{id}} is no longer in this column: the board has changed, reload it',
  leadSourceHidden: 'is a lead source your role may not see',
  blacklisted: 'is on the blacklist (do not contact): {{value}}',
  leadClosed: 'lead {{id}} is closed: reopen it first',
  leadNoPerson: 'a lead needs a last name, a company name or a customer',
  leadConverted: 'lead {{id}} already has a customer',
  leadOtherCustomer: 'is not the customer of lead {{id}}',
  assigneeCannotSeeSource: "cannot see this lead's source (its visible roles leave out {{role}})",

  // Commissions (server/commissions/).
  commissionRuleOverlap:
    'is as specific as rule "{{rule}}" (#{{id}}) for an overlapping case: change one of them',
  notBelowFrom: 'must not be below the lower bound',
  notZero: 'must not be zero',
  commissionLineFrozen: 'the line is in a payout not yet paid: correct it after the payout',
  commissionLineReversed: 'the line has been reversed already',
  payoutNothingToPay: 'has no ready lines up to this month',
  payoutFrozen: 'the payout is {{status}}: only a new payout may be changed',
  payoutWrongStatus: 'the payout is {{status}}: this needs a {{expected}} payout',
  payoutExists: 'already has a payout for {{period}}',
  // Offers (server/offers/).
  offerDecided: 'the offer is {{status}}: only its note may still change',
  offerNotAcceptable: 'the offer is {{status}}: only a draft or sent offer can be accepted',
  offerNotDeclinable:
    'the offer is {{status}}: only a draft, sent or expired offer can be declined',

  // The car-insurance comparison (src/schema/comparison.ts, server/comparison/).
  driverTooYoung: 'must make the driver at least {{years}} years old',
  licenceBefore18: 'must not be before the driver turned {{years}}',
  notBeforeRegistration: 'must not be before the first registration',
  permitRequired: 'is required for a driver who is not Swiss',
  youngDriverNamed: 'must be yes: a driver named is under 25',
  leasedNeedsFullCasco: 'must be full casco for a leased car',
  bonusProtectionFullCasco: 'can cover full casco only when full casco is chosen',
  notInStep: 'is not a field of the step {{step}}',
  comparisonIncomplete: 'Fill in every step before comparing (done: {{done}} of {{steps}}).',
  comparisonNotConfigured:
    'The comparison service is not configured on this server: no prices can be shown.',
  comparisonNoCredentials:
    'No offer credentials for the comparison service: enter them in the settings (offer credentials).',
  comparisonCredentialsRefused:
    'The comparison service refused the offer credentials: check them in the settings.',
  comparisonTimeout:
    'The comparison service did not answer within {{seconds}} s. The draft is saved; try again later.',
  comparisonUnavailable:
    'The comparison service could not be reached (status {{status}}). The draft is saved; try again later.',
  comparisonMalformed:
    'The comparison service answered something that is not a comparison. The draft is saved; try again later.',
  comparisonNoResults: 'Compare first: this draft has no results to choose from.',
  comparisonQuoteUnknown: 'is not a result of this comparison: {{ids}}',
  comparisonNoCompany: 'names an insurer that is not among the companies: {{insurers}}',
  comparisonStaffOnly: 'Only the consultant can turn results into offers.',

  // Global check (server/global-check/).
  gapYearsWithoutFlag: 'is only possible when missing contribution years are declared',
  incomeRequired: 'must be above 0 unless the customer is not employed',
  employmentBefore15: 'must not be before the 15th birthday ({{date}})',
  childTooEarly: 'must be at least 12 years after the birth of the customer ({{date}})',
  globalCheckNoGap: 'This scenario has no gap: nothing to follow up.',
  globalCheckNoLeadSource:
    'No lead source can be used for a lead of this customer (none visible to you and their consultant).',

  // Signatures (server/signatures/).
  signatureDocumentType:
    'Only a broker mandate, an advice protocol or an application can be signed online (this document is: {{type}}).',
  signatureNotPdf: 'Only a PDF can be signed online: this document has no PDF file.',
  signatureTooLarge: 'The PDF is too large to be signed online: at most {{limit}}.',
  signaturePdfUnreadable:
    'The PDF cannot be signed online: it is protected by a password or damaged.',
  signatureNotOpen: 'This signature request is no longer open ({{status}}).',
  signatureLinkInvalid:
    'This signing link is not valid. Check that you opened the whole link from the mail.',
  signatureLinkUsed:
    'This document has already been signed with this link. The link works only once.',
  signatureLinkRevoked: 'This signing link was withdrawn. Ask your consultant for a new one.',
  signatureLinkExpired: 'This signing link has expired. Ask your consultant for a new one.',
  signatureDocumentGone: 'The document of this link is no longer available. Ask your consultant.',
  signatureDocumentChanged:
    'The document was changed after this link was sent, so it can no longer be signed with it. Ask your consultant for a new link.',
  signatureEmpty: 'Please sign in the field: it is still empty.',
  signatureConsent: 'Please confirm that you have read the document and sign it electronically.',

  // Files.
  fileEmpty: 'The file is empty.',
  fileType: 'This type of file is not accepted ({{type}}). Allowed: {{allowed}}.',
  fileTypeUnknown: 'This type of file is not accepted. Allowed: {{allowed}}.',
  fileContent: "The file's content is {{type}}, but its name ends in .{{extension}}.",
  fileTooLarge: 'The file is too large: at most {{limit}} are accepted.',
  filePart: 'Unexpected file part "{{part}}"; name the part "file".',
  oneFile: 'Send one file at a time.',
  multipartFile: 'Send the file as multipart/form-data (a part named "file").',
  multipartCsv: 'Send the CSV as multipart/form-data (parts "file" and "options").',
  uploadIdle: 'The upload was cut off: no data for {{seconds}} s.',
  uploadTooSlow: 'The upload was cut off: not finished after {{seconds}} s.',
  tooManyParts: 'The form has too many parts.',
  uploadInterrupted: 'The upload was interrupted before the end of the form.',
  storedFileMissing: 'The stored file is missing.',
  noDocumentFile: 'This document has no file.',
  noFeedbackImage: 'This feedback has no image.',
  csvUtf8:
    'The file is not valid UTF-8 (line {{line}}). Save it as "CSV UTF-8", or choose the encoding Windows-1252.',
  csvOtherType: 'This is a {{type}} file, not CSV. Save it as CSV (UTF-8) and import that.',
  csvNotText: 'This is not a text file. Import a CSV file (UTF-8).',
  csvTooManyRows: 'The file has more than {{limit}} rows; split it.',
  csvInvalid: 'The file is not valid CSV (line {{line}}): {{reason}}',
  csvNoHeader: 'The file has no header line.',
  csvUnnamedColumn: 'Column {{column}} of the header line has no name.',
  csvSameName: 'Columns {{first}} and {{second}} are both named "{{name}}".',
  csvTooLarge: 'The file is too large: at most {{limit}} MB.',
  duplicateChoices: 'The choices for likely duplicates are not valid.',
  rowsRefused:
    '{{invalid}} of {{total}} rows have errors; nothing was imported. Correct them or choose to skip invalid rows.',

  // A whole request.
  invalidData: 'The data is not valid: {{fields}}.',
  invalidQuery: 'Invalid query parameter: {{fields}}.',
  invalidPath: 'Invalid path parameter: {{fields}}.',
  invalidHeader: 'Invalid header: {{fields}}.',
  mappingIncomplete: 'The column mapping is not complete.',
  mergeInvalid: 'The merged customer would not be valid; correct one of the two first.',
  memberInvalid: 'The household member cannot become a customer as it is; correct it first.',
  memberIsCustomer: 'This household member is already customer #{{id}}.',
  notFound: '{{what}} not found.',
  noRoute: 'No route {{method}} {{path}}.',
  forbidden: 'You do not have permission to do this.',
  signIn: 'Please sign in.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  noCustomerAccess: 'Your account has no access to customer data.',
  backOfficeAction: 'Only the back office may {{action}}.',
  adminPersonalData: 'Only an administrator may answer personal-data requests.',
  duplicatesCheckForbidden: 'Only the back office and consultants check for duplicate customers.',
  auditLogForbidden: 'You do not have permission to read the audit log.',
  auditNeedsResource: 'record_id needs the resource it belongs to.',
  accountRights: 'You cannot change an account that has rights you do not hold.',
  deleteAccountRights: 'You cannot delete an account that has rights you do not hold.',
  deleteOwnAccount: 'You cannot delete your own account.',
  notWaitingForApproval: 'This account is not waiting for approval.',
  accountDisabled: 'This account is disabled.',
  waitingForApproval:
    'Your registration is waiting for approval by an administrator. You can sign in once it is approved.',
  loginFailed: 'Email or password is not correct.',
  throttledAccount:
    'Too many sign-in attempts for this account. Please try again later, or reset your password: the link in the mail lets you in at once.',
  throttledAddress:
    'Too many sign-in attempts from your network. Please try again in {{seconds}} seconds.',
  tooManyAttempts: 'Too many attempts. Please wait an hour and try again.',
  jobNotFailed: 'Only a failed job can be retried.',
  versionConflict:
    'This {{what}} was changed by someone else in the meantime (now version {{version}}); reload it, or send the current version to overwrite.',
  stillUsed: 'This {{what}} is still used by other records{{users}} and cannot be deleted.',
  ifMatch: 'If-Match must be * or entity tags as ETag gives them, e.g. "3".',
  badAddress: 'The address is not valid (it cannot be decoded).',
  badJson: 'The body is not valid JSON.',
  emptyJson: 'The body is empty; send a JSON object.',
  bodyTooLarge: 'The body is too large.',
  mediaType: 'Send the body as application/json.',
  contentLength: 'The body is not as long as its Content-Length says.',
  paramTooLong: 'A part of the address is too long.',
  notRoutable: 'The request cannot be routed.',
  badRequest: 'The request is not valid.',
  internal: 'Internal server error.',
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof ERROR_TEXTS;

/** Values of a message's placeholders. */
export type ErrorArgs = Record<string, string | number>;

/**
 * One error: its code and arguments. `text` overrides the English sentence where a library wrote
 * a more precise one (ajv's), so API clients keep reading it.
 */
export interface ErrorIssue {
  code: ErrorCode;
  args?: ErrorArgs;
  text?: string;
}

/** One error of a field or a request: a code and its arguments. */
export const issue = (code: ErrorCode, args?: ErrorArgs): ErrorIssue =>
  args ? { code, args } : { code };

/** Errors by field path (`email`, `emails.0`, `mapping.Name`, `_` for the record as a whole). */
export type FieldErrors = Record<string, ErrorIssue[]>;

/** The prefix of the error keys in the locale files. */
export const ERROR_KEY_PREFIX = 'app.errors.';

/** The translation key of a code. */
export const errorKey = (code: ErrorCode): string => `${ERROR_KEY_PREFIX}${code}`;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_TEXTS, value);

/** The English sentence of an issue, its `{{placeholders}}` filled in. */
export function errorText(issue: ErrorIssue): string {
  if (issue.text !== undefined) return issue.text;
  return ERROR_TEXTS[issue.code].replace(/\{\{(\w+)\}\}/g, (_, name: string) =>
    issue.args && name in issue.args ? String(issue.args[name]) : '',
  );
}

/** The form react-admin translates: `{ message: <key>, args }` (ValidationErrorMessageWithArgs). */
export interface KeyedMessage {
  message: string;
  args?: ErrorArgs;
}

export const keyedMessage = (issue: ErrorIssue): KeyedMessage =>
  issue.args
    ? { message: errorKey(issue.code), args: issue.args }
    : { message: errorKey(issue.code) };

/** A message's arguments as sent (strings and numbers of a plain object), or undefined. */
export function argsOf(value: unknown): ErrorArgs | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string | number] =>
        typeof entry[1] === 'string' || typeof entry[1] === 'number',
    ),
  );
}

/**
 * react-admin's text form of a message with arguments (its ValidationError and our translate()
 * read it): a form error or a notification is a string, so the key and arguments travel inside one.
 */
const KEYED_PREFIX = '@@react-admin@@';

export const encodeKeyed = (keyed: KeyedMessage): string =>
  `${KEYED_PREFIX}${JSON.stringify(keyed)}`;

/** The key and arguments of an encoded message, or undefined for any other text. */
export function decodeKeyed(text: string): KeyedMessage | undefined {
  if (!text.startsWith(KEYED_PREFIX)) return undefined;
  try {
    const parsed: unknown = JSON.parse(text.slice(KEYED_PREFIX.length));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { message, args } = parsed as { message?: unknown; args?: unknown };
    if (typeof message !== 'string') return undefined;
    const values = argsOf(args);
    return values ? { message, args: values } : { message };
  } catch {
    return undefined;
  }
}
