/**
 * The password rule, one function for the browser and the server (spec §5, issue 3): at least
 * 8 characters, an uppercase letter, a lowercase letter and a symbol (a non-word character), at most
 * 200 characters; the confirmation must equal the new password. Answers translation keys
 * (app.password.rule.<problem>) so both sides name the same problems.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

export type PasswordProblem =
  'required' | 'tooShort' | 'tooLong' | 'uppercase' | 'lowercase' | 'symbol' | 'mismatch';

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

/** English messages of the problems, for API answers (the UI translates the keys). */
export const PASSWORD_MESSAGES: Record<PasswordProblem, string> = {
  required: 'is required',
  tooShort: `must have at least ${PASSWORD_MIN_LENGTH} characters`,
  tooLong: `must have at most ${PASSWORD_MAX_LENGTH} characters`,
  uppercase: 'must contain an uppercase letter',
  lowercase: 'must contain a lowercase letter',
  symbol: 'must contain a symbol (a character other than letters, digits and _)',
  mismatch: 'does not match the new password',
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
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const problem of passwordProblems(password, confirm)) {
    const field = problem === 'mismatch' ? fields.confirm : fields.password;
    errors[field] ??= [];
    errors[field].push(PASSWORD_MESSAGES[problem]);
  }
  return errors;
}
