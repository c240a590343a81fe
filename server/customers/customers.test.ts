/**
 * Pure pieces of the customer feature: rules, import value parsing and column suggestions, phone
 * comparison, download names.
 */
import { describe, expect, it } from 'vitest';
import { phoneDigits } from './duplicates.ts';
import { cleanFileName, contentDisposition } from './files.ts';
import { parseDate, suggestField } from '../import/columns.ts';
import { customerImport } from './import.ts';
import { customerErrors, dateText, merged, personErrors } from './rules.ts';
import { loadResourceModels } from '../schemas.ts';

const models = loadResourceModels();
const customers = models.find((model) => model.name === 'customers');
if (!customers) throw new Error('no customers schema');
const TODAY = '2026-06-15';

describe('rules', () => {
  it('checks dates against today and each other', () => {
    expect(personErrors({ date_of_birth: '2026-06-16' }, TODAY)).toHaveProperty('date_of_birth');
    expect(personErrors({ date_of_birth: TODAY }, TODAY)).toEqual({});
    expect(personErrors({ date_of_birth: '1899-12-31' }, TODAY)).toHaveProperty('date_of_birth');
    expect(
      personErrors({ date_of_birth: '1980-01-02', partnership_date: '1980-01-01' }, TODAY),
    ).toHaveProperty('partnership_date');
    expect(
      personErrors({ date_of_birth: '1980-01-02', partnership_date: '1980-01-02' }, TODAY),
    ).toEqual({});
    expect(personErrors({ date_of_birth: new Date('2027-01-01T00:00:00Z') }, TODAY)).toHaveProperty(
      'date_of_birth',
    );
  });

  it('checks the zip by country, the organization of a company and permits', () => {
    // A person with both names, so only the rule under test can answer.
    const person = { first_name: 'Lara', last_name: 'Meier' };
    expect(customerErrors({ ...person, zip: '8001', country: 'CH' }, TODAY)).toEqual({});
    expect(customerErrors({ ...person, zip: '0800', country: 'CH' }, TODAY)).toHaveProperty('zip');
    expect(customerErrors({ ...person, zip: '949', country: 'LI' }, TODAY)).toHaveProperty('zip');
    expect(customerErrors({ ...person, zip: 'D-79539', country: 'DE' }, TODAY)).toEqual({});
    expect(customerErrors({ is_company: true, organization: ' ' }, TODAY)).toHaveProperty(
      'organization',
    );
    expect(
      customerErrors({ ...person, nationality: 'CH', permit_type: 'C' }, TODAY),
    ).toHaveProperty('permit_type');
    expect(customerErrors({ ...person, nationality: 'PT', permit_type: 'C' }, TODAY)).toEqual({});
    expect(
      customerErrors({ ...person, id: 5, recommended_by_customer_id: 5 }, TODAY),
    ).toHaveProperty('recommended_by_customer_id');
  });

  it('needs a company name for a company, first and last name for a person', () => {
    expect(customerErrors({ is_company: true, organization: 'Garage Huber AG' }, TODAY)).toEqual(
      {},
    );
    expect(Object.keys(customerErrors({ is_company: false }, TODAY)).sort()).toEqual([
      'first_name',
      'last_name',
    ]);
    expect(Object.keys(customerErrors({ first_name: 'Lara', last_name: ' ' }, TODAY))).toEqual([
      'last_name',
    ]);
    expect(Object.keys(customerErrors({ is_company: true, first_name: 'Lara' }, TODAY))).toEqual([
      'organization',
    ]);
  });

  it('merges a body over the stored record, ignoring server-owned keys', () => {
    expect(
      merged({ id: 1, zip: '8001', city: 'Zürich' }, { id: 9, zip: '3011', city: undefined }),
    ).toEqual({
      id: 1,
      zip: '3011',
      city: 'Zürich',
    });
    expect(dateText(new Date('2010-06-05T00:00:00Z'))).toBe('2010-06-05');
  });
});

describe('import values', () => {
  it('reads ISO and Swiss dates and refuses impossible ones', () => {
    expect(parseDate('1961-03-12')).toBe('1961-03-12');
    expect(parseDate('12.3.1961')).toBe('1961-03-12');
    expect(parseDate('01/07/1985')).toBe('1985-07-01');
    expect(parseDate('31.02.1980')).toBeUndefined();
    expect(parseDate('1980-13-01')).toBeUndefined();
    expect(parseDate('gestern')).toBeUndefined();
  });

  it('suggests fields from column names in four languages and common aliases', () => {
    const cases: Record<string, string | null> = {
      Vorname: 'firstName',
      Prénom: 'firstName',
      'first name': 'firstName',
      Cognome: 'lastName',
      PLZ: 'zip',
      NPA: 'zip',
      Natel: 'phoneNumber',
      'E-Mail': 'email',
      Geburtsdatum: 'dateOfBirth',
      'Date de naissance': 'dateOfBirth',
      Firmenname: 'organization',
      Kundennummer: null,
    };
    for (const [header, field] of Object.entries(cases)) {
      expect(suggestField(customers, customerImport.fields(customers), header), header).toBe(field);
    }
  });

  it('compares phone numbers by their digits', () => {
    expect(phoneDigits('+41 79 123 45 67')).toBe('0791234567');
    expect(phoneDigits('0041 79 123 45 67')).toBe('0791234567');
    expect(phoneDigits('079/123.45.67')).toBe('0791234567');
    expect(phoneDigits('+49 30 123456')).toBe('+4930123456');
  });
});

describe('files', () => {
  it('keeps only the last segment of an uploaded name', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\anna\\Police.pdf')).toBe('Police.pdf');
    expect(cleanFileName('a\u0000b.pdf')).toBe('ab.pdf');
  });

  it('offers any name for download safely (RFC 6266)', () => {
    expect(contentDisposition('Police Küche "neu".pdf')).toBe(
      `attachment; filename="Police Kuche _neu_.pdf"; filename*=UTF-8''Police%20K%C3%BCche%20%22neu%22.pdf`,
    );
  });
});
