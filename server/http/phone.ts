/**
 * Phone fields on every write path (src/schema/phone.ts): `"format": "phone"` accepts a valid
 * number in any common spelling, and the value is rewritten to E.164 during validation, so the
 * generic routes, hand-written routes and the CSV import (all compiled by server/http/validation.ts)
 * store one canonical form without code of their own.
 *
 * ajv formats only check; the rewrite is a modifying keyword (`PHONE_NORMALISE_KEYWORD`) that the
 * compiler's hardening adds beside every `format: phone` (`addPhoneNormalising`), so schemas
 * declare only the format.
 */
import type { Ajv, SchemaValidateFunction } from 'ajv';
import { isPhoneNumber, PHONE_FORMAT, toE164 } from '../../src/schema/phone.ts';
import type { JsonSchema } from '../../src/schema/model.ts';

/** Wire-only keyword set by the compiler on phone fields: rewrite a valid number to E.164. */
export const PHONE_NORMALISE_KEYWORD = 'x-phone-e164';

/** Rewrites a valid number in place (in its parent object or array); never fails. */
const normalise: SchemaValidateFunction = (enabled: boolean, data: unknown, _schema, cxt) => {
  const e164 = enabled && typeof data === 'string' ? toE164(data) : null;
  if (e164 === null || e164 === data || !cxt) return true;
  const parent: unknown = cxt.parentData;
  if (typeof parent === 'object' && parent !== null)
    Reflect.set(parent, cxt.parentDataProperty, e164);
  return true;
};

/** Teach an ajv instance the `phone` format and the rewriting keyword. */
export function addPhoneFormat(ajv: Ajv): void {
  ajv.addFormat(PHONE_FORMAT, { type: 'string', validate: isPhoneNumber });
  // The format reports a bad number; the keyword only rewrites a good one.
  ajv.addKeyword({
    keyword: PHONE_NORMALISE_KEYWORD,
    type: 'string',
    schemaType: 'boolean',
    modifying: true,
    validate: normalise,
  });
}

/** Puts the rewriting keyword on the hardened copy (`out`) of a phone field's schema node. */
export function addPhoneNormalising(node: JsonSchema, out: JsonSchema): void {
  if (node.format === PHONE_FORMAT) out[PHONE_NORMALISE_KEYWORD] = true;
}
