/** Server sentences → translation keys (./serverMessages.ts). */
import { describe, expect, it } from 'vitest';
import { translateServerMessage } from './serverMessages.ts';

const echo = (key: string, values?: Record<string, unknown>) =>
  values && Object.keys(values).length > 0 ? `${key}${JSON.stringify(values)}` : key;

describe('translateServerMessage', () => {
  it('maps the validation sentences of the API to keys with their values', () => {
    expect(translateServerMessage('is required', echo)).toBe('app.serverErrors.required');
    expect(translateServerMessage('must NOT have more than 200 characters', echo)).toBe(
      'app.serverErrors.maxLength{"limit":"200"}',
    );
    expect(translateServerMessage('must be one of: de, en, fr, it', echo)).toBe(
      'app.serverErrors.enum{"values":"de, en, fr, it"}',
    );
    expect(translateServerMessage('must match format "email"', echo)).toBe(
      'app.serverErrors.format{"format":"email"}',
    );
    expect(translateServerMessage('refers to unknown companies: 4, 5', echo)).toBe(
      'app.serverErrors.unknownReference{"ids":"4, 5"}',
    );
    expect(translateServerMessage('is not a known language: 99', echo)).toBe(
      'app.serverErrors.unknownLanguage{"value":"99"}',
    );
    expect(translateServerMessage('Company not found.', echo)).toBe('app.serverErrors.notFound');
  });

  it('translates each part of joined messages, and leaves unknown sentences alone', () => {
    expect(translateServerMessage('is required; must be integer', echo)).toBe(
      'app.serverErrors.required; app.serverErrors.type',
    );
    expect(translateServerMessage('is required; something new', echo)).toBeUndefined();
    expect(translateServerMessage('Grüezi', echo)).toBeUndefined();
  });
});
