/**
 * The server answers in English sentences (for API clients and logs): field errors such as
 * "is required" or "must NOT have more than 100 characters", and messages such as "Please sign in.".
 * react-admin hands them to the translator as they are (beside an input, in a notification); here
 * each known sentence maps to a key of `app.serverErrors` with its values, so the user reads it in
 * the chosen language. Several messages of one field arrive joined by "; ". A sentence without a
 * pattern is shown as the server wrote it; add a pattern (and its key in the four locale files)
 * when a hook answers a new one.
 */

interface Pattern {
  match: RegExp;
  key: string;
  /** Names of the captured groups, in order, as interpolation values. */
  values?: string[];
}

export const SERVER_MESSAGE_PATTERNS: Pattern[] = [
  { match: /^is required$/, key: 'app.serverErrors.required' },
  {
    match: /^must NOT have more than (\d+) characters$/,
    key: 'app.serverErrors.maxLength',
    values: ['limit'],
  },
  {
    match: /^must NOT have fewer than (\d+) characters$/,
    key: 'app.serverErrors.minLength',
    values: ['limit'],
  },
  {
    match: /^must NOT have more than (\d+) items$/,
    key: 'app.serverErrors.maxItems',
    values: ['limit'],
  },
  {
    match: /^must NOT have fewer than (\d+) items$/,
    key: 'app.serverErrors.minItems',
    values: ['limit'],
  },
  { match: /^must NOT have duplicate items\b/, key: 'app.serverErrors.duplicateItems' },
  { match: /^must be <= (.+)$/, key: 'app.serverErrors.maximum', values: ['limit'] },
  { match: /^must be >= (.+)$/, key: 'app.serverErrors.minimum', values: ['limit'] },
  { match: /^must be < (.+)$/, key: 'app.serverErrors.exclusiveMaximum', values: ['limit'] },
  { match: /^must be > (.+)$/, key: 'app.serverErrors.exclusiveMinimum', values: ['limit'] },
  { match: /^must match format "(.+)"$/, key: 'app.serverErrors.format', values: ['format'] },
  { match: /^must match pattern /, key: 'app.validation.pattern' },
  { match: /^must be one of: (.+)$/, key: 'app.serverErrors.enum', values: ['values'] },
  {
    match: /^must be (integer|number|string|boolean|array|object)(,\s*\w+)*$/,
    key: 'app.serverErrors.type',
  },
  { match: /^is not a known field$/, key: 'app.serverErrors.unknownField' },
  { match: /^is read-only$/, key: 'app.serverErrors.readOnly' },
  { match: /^must not contain the character NUL\b/, key: 'app.serverErrors.nul' },
  { match: /^must be a whole number in decimal digits$/, key: 'app.serverErrors.integerText' },
  { match: /^must be a number in decimal digits$/, key: 'app.serverErrors.numberText' },
  {
    match: /^must be a link starting with https:\/\/ or http:\/\/, or a path starting with \/$/,
    key: 'app.serverErrors.urlWebOrApp',
  },
  {
    match: /^must be a link starting with https:\/\/ or http:\/\/$/,
    key: 'app.serverErrors.urlWeb',
  },
  { match: /^must be a path of this app starting with \/$/, key: 'app.serverErrors.urlApp' },
  { match: /^can only be set by the back office$/, key: 'app.serverErrors.backOfficeOnly' },
  { match: /^cannot be changed by you$/, key: 'app.serverErrors.notYours' },
  { match: /^is already used by another record$/, key: 'app.serverErrors.unique' },
  { match: /^refers to a record that does not exist$/, key: 'app.serverErrors.reference' },
  {
    match: /^refers to unknown [\w-]+: (.+)$/,
    key: 'app.serverErrors.unknownReference',
    values: ['ids'],
  },
  {
    match: /^is not a known language: (.+)$/,
    key: 'app.serverErrors.unknownLanguage',
    values: ['value'],
  },
  { match: /^appears more than once$/, key: 'app.serverErrors.duplicate' },
  {
    match: /^uses unknown placeholders: (.+)$/,
    key: 'app.serverErrors.unknownPlaceholders',
    values: ['placeholders'],
  },
  {
    match: /^must be the key of translation \d+ \((.+)\)$/,
    key: 'app.serverErrors.keyMismatch',
    values: ['key'],
  },
  { match: /^The data is not valid\b/, key: 'app.serverErrors.invalid' },
  { match: /^Please sign in\.$/, key: 'app.serverErrors.signIn' },
  { match: /^Your session has expired\b/, key: 'app.session.expired' },
  { match: /^You do not have permission to do this\.$/, key: 'app.serverErrors.forbidden' },
  { match: /^.+ not found\.$/, key: 'app.serverErrors.notFound' },
  { match: /^No route \w+ .+\.$/, key: 'app.serverErrors.notFound' },
  { match: /is still used by other records/, key: 'app.serverErrors.stillUsed' },
  { match: /^Cannot reach the server\b/, key: 'app.serverErrors.unreachable' },
  { match: /^Internal server error\.$/, key: 'app.serverErrors.internal' },
  { match: /^is too easy to guess/, key: 'app.password.rule.common' },
  {
    match: /^must not be made of your name or e-mail address$/,
    key: 'app.password.rule.personal',
  },
  { match: /^Too many sign-in attempts for this account/, key: 'app.login.throttledAccount' },
  {
    match: /^Too many sign-in attempts from your network\. Please try again in (\d+) seconds\.$/,
    key: 'app.login.throttledAddress',
    values: ['seconds'],
  },
  { match: /^Too many sign-in attempts\b/, key: 'app.login.throttled' },
  { match: /^Email or password is not correct\.$/, key: 'app.login.failed' },
];

/** Every key the patterns use (for the completeness test). */
export const SERVER_MESSAGE_KEYS = [...new Set(SERVER_MESSAGE_PATTERNS.map((p) => p.key))];

/**
 * The message in the chosen language, or undefined when one of its parts is not a known server
 * sentence (then it is shown as it is).
 */
export function translateServerMessage(
  message: string,
  translate: (key: string, values?: Record<string, unknown>) => string,
): string | undefined {
  const parts = message.split('; ');
  const translated: string[] = [];
  for (const part of parts) {
    const pattern = SERVER_MESSAGE_PATTERNS.find((candidate) => candidate.match.test(part));
    if (!pattern) return undefined;
    const groups = pattern.match.exec(part) ?? [];
    const values = Object.fromEntries(
      (pattern.values ?? []).map((name, index) => [name, groups[index + 1]]),
    );
    translated.push(translate(pattern.key, values));
  }
  return translated.join('; ');
}
