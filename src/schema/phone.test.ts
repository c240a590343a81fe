/** Phone numbers (src/schema/phone.ts): spellings accepted, E.164 stored, formats shown. */
import { describe, expect, it } from 'vitest';
import { E164, formatPhone, isPhoneNumber, phoneHref, toE164 } from './phone.ts';

describe('phone numbers', () => {
  it('read every common spelling of a Swiss number as the same E.164 number', () => {
    for (const text of [
      '079 322 50 35',
      '0793225035',
      '+41 79 322 50 35',
      '+41793225035',
      '0041 79 322 50 35',
      '079/322.50.35',
      '079-322-50-35',
      '+41 (0)79 322 50 35',
      ' 079 322 50 35 ',
    ]) {
      expect(toE164(text), text).toBe('+41793225035');
    }
    expect(toE164('+49 30 1234567')).toBe('+49301234567');
    expect(toE164('+423 234 56 78')).toBe('+4232345678');
    expect(toE164('+41793225035')).toMatch(E164);
  });

  it('refuse text that is not a valid number', () => {
    for (const text of [
      'abc',
      '',
      '12345',
      '079 322 50',
      '8050',
      'tel 079 322 50 35',
      '079 322 50 35 x',
    ]) {
      expect(isPhoneNumber(text), text).toBe(false);
      expect(toE164(text), text).toBeNull();
    }
  });

  it('show Swiss numbers nationally, others internationally, invalid text as it is', () => {
    expect(formatPhone('+41793225035')).toBe('079 322 50 35');
    expect(formatPhone('+41441234567')).toBe('044 123 45 67');
    expect(formatPhone('+49301234567')).toBe('+49 30 1234567');
    expect(formatPhone('call me')).toBe('call me');
    expect(phoneHref('079 322 50 35')).toBe('tel:+41793225035');
  });
});
