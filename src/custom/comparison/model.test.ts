/**
 * The wizard's helpers: writing a path of the draft's fields (nested objects and the other users'
 * list, undefined removes), the step's browser check as keyed field messages, the prefill of the
 * parts a saved draft still lacks, where a draft resumes, and what a step sends.
 */
import { describe, expect, it } from 'vitest';
import { decodeKeyed } from '../../schema/errors.ts';
import { resumeIndex, setAt, stepBody, stepMessages, withPrefill } from './model.ts';

describe('setAt', () => {
  it('writes nested paths without touching the original', () => {
    const fields = { car: { manufacturer: 'VW' } };
    const next = setAt(fields, 'car.kilometres', 1000);
    expect(next).toEqual({ car: { manufacturer: 'VW', kilometres: 1000 } });
    expect(fields).toEqual({ car: { manufacturer: 'VW' } });
  });

  it('writes into the list of other users and removes with undefined', () => {
    const fields = { otherUsers: [{ firstName: 'Ben' }, { firstName: 'Cleo' }] };
    expect(setAt(fields, 'otherUsers.1.birthdate', '2000-01-01').otherUsers).toEqual([
      { firstName: 'Ben' },
      { firstName: 'Cleo', birthdate: '2000-01-01' },
    ]);
    expect(setAt({ car: { type: 'Golf' } }, 'car.type', undefined)).toEqual({ car: {} });
  });
});

describe('stepMessages', () => {
  it('names each missing field once, as a keyed message with its arguments', () => {
    const messages = stepMessages('drivers', { driver: { birthdate: '2015-01-01' } }, '2026-11-28');
    expect(decodeKeyed(messages['driver.title'] ?? '')).toEqual({ message: 'app.errors.required' });
    expect(decodeKeyed(messages['driver.birthdate'] ?? '')).toEqual({
      message: 'app.errors.driverTooYoung',
      args: { years: 18 },
    });
  });
});

describe('withPrefill', () => {
  it('fills only the parts still empty', () => {
    expect(
      withPrefill(
        { car: { manufacturer: 'VW' }, driver: {}, canton: 'BE' },
        { driver: { firstName: 'Anna' }, canton: 'ZH' },
      ),
    ).toEqual({ car: { manufacturer: 'VW' }, driver: { firstName: 'Anna' }, canton: 'BE' });
  });
});

describe('resumeIndex and stepBody', () => {
  it('resumes after the saved steps, on the results once compared', () => {
    expect(resumeIndex({ stepsDone: 2, status: 'open' })).toBe(2);
    expect(resumeIndex({ stepsDone: 5, status: 'complete' })).toBe(5);
    expect(resumeIndex({ stepsDone: 3, status: 'compared' })).toBe(5);
  });

  it('sends the step’s own parts only', () => {
    expect(stepBody('use', { canton: 'ZH', yearlyKm: 12000, car: { manufacturer: 'VW' } })).toEqual(
      { canton: 'ZH', yearlyKm: 12000, usage: null, garageType: null },
    );
  });
});
