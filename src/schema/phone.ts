/**
 * Phone numbers, for the server and the browser (isomorphic). A phone field declares
 * `"format": "phone"` in its schema; the server accepts any common spelling (`079 322 50 35`,
 * `0041 79 322 50 35`, `+41 79 322 50 35`, `079/322.50.35`; without a country code it is Swiss)
 * and stores the one canonical form, E.164 (`+41793225035`), so a number is found however it
 * is typed. People see it formatted: Swiss numbers in the national form (`079 322 50 35`), others
 * internationally (`+49 30 123456`). Parsing and validity: libphonenumber-js (Google's metadata).
 */
import { type CountryCode, parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js';

/** The country of a number written without a country code. */
export const DEFAULT_PHONE_REGION: CountryCode = 'CH';

/** The `format` keyword of a phone field. */
export const PHONE_FORMAT = 'phone';

/** What a phone number may be written with: digits, a leading +, spaces and separators. */
const PHONE_TEXT = /^\+?[0-9\s()./-]+$/;

/** E.164: +, a country code and at most 15 digits in all. */
export const E164 = /^\+[1-9][0-9]{5,14}$/;

function parse(text: string): PhoneNumber | undefined {
  const trimmed = text.trim();
  if (!PHONE_TEXT.test(trimmed)) return undefined;
  const number = parsePhoneNumberFromString(trimmed, DEFAULT_PHONE_REGION);
  return number?.isValid() ? number : undefined;
}

/** The number in E.164 (`+41793225035`), or null when the text is not a valid phone number. */
export function toE164(text: string): string | null {
  return parse(text)?.number ?? null;
}

/** Is the text a valid phone number in any accepted spelling? */
export function isPhoneNumber(text: string): boolean {
  return parse(text) !== undefined;
}

/**
 * The number as people read it: `079 322 50 35` for a Swiss number, `+49 30 123456` for others.
 * Text that is not a valid number (stored before the rule) is shown as it is.
 */
export function formatPhone(text: string): string {
  const number = parse(text);
  if (!number) return text;
  return number.country === DEFAULT_PHONE_REGION
    ? number.formatNational()
    : number.formatInternational();
}

/** A `tel:` link target for the number (E.164 when valid, else the digits). */
export function phoneHref(text: string): string {
  return `tel:${toE164(text) ?? text.replace(/[^0-9+]/g, '')}`;
}
