/**
 * The password rule, one module for the browser and the server (spec §5, issues 3 and 10):
 * - the rule (`passwordProblems`, synchronous, cheap): at least 8 characters, an uppercase letter,
 *   a lowercase letter and a symbol (a non-word character), at most 200 characters; the
 *   confirmation must equal the new password;
 * - the strength check (`passwordStrengthProblem`, asynchronous): not a common password or an
 *   easy variation of one (zxcvbn-ts score below PASSWORD_MIN_SCORE with the common, German,
 *   English, French and Italian dictionaries, and the common-password list compared with up to two
 *   changed characters), and not made of the owner's name or e-mail address.
 * Both answer translation keys (app.password.rule.<problem>) so both sides name the same problems.
 *
 * Where the strength check runs: on the server, in every flow that sets a password (register,
 * reset and invitation links, change, create-admin); the browser shows the server's field error.
 * The dictionaries weigh several MB, so they are loaded with `import()` on the first check only: a
 * browser screen may call the same function, and only then fetches them as a separate chunk.
 */
import { type ErrorIssue, type FieldErrors, issue } from './errors.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

export type PasswordProblem =
  | 'required'
  | 'tooShort'
  | 'tooLong'
  | 'uppercase'
  | 'lowercase'
  | 'symbol'
  | 'mismatch'
  | 'common'
  | 'personal';

/** Problems the strength check finds (beyond the rule). */
export type StrengthProblem = Extract<PasswordProblem, 'common' | 'personal'>;

/** Problems of a new password (empty when it is acceptable), in a stable order. */
export function passwordProblems(password: string, confirm?: string): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  if (!password) return ['required'];
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) problems.push('tooShort');
  if (length > PASSWORD_MAX_LENGTH) problems.push('tooLong');
  if (!/\p{Lu}/u.test(password)) problems.push('uppercase');
  if (!/\p{Ll}/u.test(password)) problems.push('lowercase');
  // A "non-word character": anything but letters, digits and _ (spec: \W). Spaces count.
  if (!/[^\p{L}\p{N}_]/u.test(password)) problems.push('symbol');
  if (confirm !== undefined && confirm !== password) problems.push('mismatch');
  return problems;
}

/** The API's error of each problem (src/schema/errors.ts; the UI translates its key). */
export const PASSWORD_ISSUES: Record<PasswordProblem, ErrorIssue> = {
  required: issue('required'),
  tooShort: issue('passwordLength', { min: PASSWORD_MIN_LENGTH }),
  tooLong: issue('passwordTooLong', { max: PASSWORD_MAX_LENGTH }),
  uppercase: issue('passwordUpper'),
  lowercase: issue('passwordLower'),
  symbol: issue('passwordSymbol'),
  mismatch: issue('passwordsDiffer'),
  common: issue('passwordCommon'),
  personal: issue('passwordPersonal'),
};

/**
 * Field errors of a password form in the API's shape, e.g.
 * `{ new_password: [...], confirm_password: ['does not match the new password'] }`.
 */
export function passwordFieldErrors(
  password: string,
  confirm: string | undefined,
  fields: { password: string; confirm: string } = {
    password: 'new_password',
    confirm: 'confirm_password',
  },
): FieldErrors {
  const errors: FieldErrors = {};
  for (const problem of passwordProblems(password, confirm)) {
    const field = problem === 'mismatch' ? fields.confirm : fields.password;
    errors[field] ??= [];
    errors[field].push(PASSWORD_ISSUES[problem]);
  }
  return errors;
}

/** The result of one estimate (the type only: the library itself is loaded on first use). */
type ZxcvbnResult = import('@zxcvbn-ts/core').ZxcvbnResult;

/** zxcvbn-ts score a new password needs (3: about 10^8 guesses or more, "safely unguessable"). */
export const PASSWORD_MIN_SCORE = 3;
/** Characters of a password the strength check looks at (longer ones are strong anyway). */
const CHECKED_LENGTH = 100;

/** Whose password it is: their names and e-mail address must not make it up. */
export interface PasswordOwner {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}

interface Estimator {
  /**
   * The lower of the two estimates (all dictionaries; common passwords with typos): about
   * 0.1–0.3 s of CPU, so the server runs it only after a flow's own throttle let the request in.
   */
  score(password: string, inputs: string[]): { score: number; usedInputs: boolean };
}

let estimator: Promise<Estimator> | undefined;

/** Builds the estimator once, loading zxcvbn-ts and its dictionaries on first use. */
function loadEstimator(): Promise<Estimator> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, de, en, fr, it] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-de'),
      import('@zxcvbn-ts/language-en'),
      import('@zxcvbn-ts/language-fr'),
      import('@zxcvbn-ts/language-it'),
    ]);
    // One list per language (their list names overlap), most common words first, no repeats.
    const merged = (lists: Record<string, string[]>) => [...new Set(Object.values(lists).flat())];
    const words = new ZxcvbnFactory({
      graphs: common.adjacencyGraphs,
      dictionary: {
        ...common.dictionary,
        ...en.dictionary,
        de: merged(de.dictionary),
        fr: merged(fr.dictionary),
        it: merged(it.dictionary),
      },
      maxLength: CHECKED_LENGTH,
    });
    // Edit distance over every dictionary costs seconds; over the common passwords it stays fast
    // and catches "Passwort1!" or "Welcome1!" that the plain match scores higher.
    const variants = new ZxcvbnFactory({
      graphs: common.adjacencyGraphs,
      dictionary: { 'passwords-common': common.dictionary['passwords-common'] },
      useLevenshteinDistance: true,
      maxLength: CHECKED_LENGTH,
    });
    return {
      score(password, inputs) {
        const usedInputs = (result: ZxcvbnResult) =>
          result.sequence.some(
            (match) => 'dictionaryName' in match && match.dictionaryName === 'userInputs',
          );
        const plain = words.check(password, inputs);
        if (plain.score < PASSWORD_MIN_SCORE)
          return { score: plain.score, usedInputs: usedInputs(plain) };
        const close = variants.check(password, inputs);
        return { score: close.score, usedInputs: usedInputs(plain) || usedInputs(close) };
      },
    };
  })();
  return estimator;
}

const withoutAccents = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '');

/**
 * The owner's words a password must not be made of: names, the e-mail address, its local part and
 * the pieces of both (lower case, also without accents), and the app's own name.
 */
export function ownerWords(owner: PasswordOwner): string[] {
  const words = new Set<string>(['gscrm', 'gs crm']);
  const add = (value: string | null | undefined) => {
    const word = value?.trim().toLowerCase();
    if (!word) return;
    words.add(word);
    words.add(withoutAccents(word));
  };
  add(owner.firstName);
  add(owner.lastName);
  if (owner.firstName && owner.lastName) add(`${owner.firstName} ${owner.lastName}`);
  const email = owner.email?.trim().toLowerCase();
  if (email) {
    add(email);
    const [local, domain = ''] = email.split('@');
    add(local);
    for (const piece of [...local.split(/[._+-]+/), ...domain.split('.')]) add(piece);
  }
  for (const name of [owner.firstName, owner.lastName])
    for (const piece of name?.split(/[\s-]+/) ?? []) add(piece);
  return [...words].filter((word) => word.length >= 2);
}

/**
 * The strength problem of a password that passes the rule, or undefined: 'personal' when it is
 * made of the owner's name or e-mail (what is left without them would be too weak), 'common' when
 * it is weak by itself.
 */
export async function passwordStrengthProblem(
  password: string,
  owner: PasswordOwner = {},
): Promise<StrengthProblem | undefined> {
  const { score } = await loadEstimator();
  const inputs = ownerWords(owner);
  const whole = score(password, inputs);
  if (whole.score < PASSWORD_MIN_SCORE) return whole.usedInputs ? 'personal' : 'common';
  // Strong as a whole, but maybe only thanks to the owner's own words ("Lara.Keller@demo.ch").
  let rest = password.toLowerCase();
  let found = false;
  for (const word of [...inputs].sort((a, b) => b.length - a.length)) {
    if (word.length < 3 || !rest.includes(word)) continue;
    found = true;
    rest = rest.split(word).join(' ');
  }
  if (found && score(rest.replace(/\s+/g, ' ').trim(), []).score < PASSWORD_MIN_SCORE)
    return 'personal';
  return undefined;
}

/**
 * Field errors of a new password: the rule, then (for a password that passes it) the strength
 * check. The server's check for every flow that sets a password.
 */
export async function checkedPasswordFieldErrors(
  password: string,
  confirm: string | undefined,
  owner: PasswordOwner,
  fields: { password: string; confirm: string } = {
    password: 'new_password',
    confirm: 'confirm_password',
  },
): Promise<FieldErrors> {
  const errors = passwordFieldErrors(password, confirm, fields);
  if (errors[fields.password]) return errors;
  const problem = await passwordStrengthProblem(password, owner);
  if (problem) errors[fields.password] = [PASSWORD_ISSUES[problem]];
  return errors;
}
