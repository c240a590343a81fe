/**
 * The text that stands for a record in the browser (src/resources/labels.ts): the representation
 * templates of the customers schema; picker options sorted by their label in the user's language
 * (Intl.Collator) and the type-ahead match.
 */
import { describe, expect, it } from 'vitest';
import { loadResourceModels } from '../../server/schemas.ts';
import deMessages from '../../locales/de.json';
import frMessages from '../../locales/fr.json';
import {
  LONG_LIST,
  matchesTyped,
  representRecord,
  sortByLabel,
  sortedEnumChoices,
} from './labels.ts';

const customers = loadResourceModels().find((model) => model.name === 'customers');
if (!customers) throw new Error('no customers schema');

describe('representation', () => {
  it('shows a company by its organization and a person by first and last name', () => {
    expect(
      representRecord(customers, {
        id: 1,
        organization: 'Beispiel AG',
        firstName: 'Anna',
        lastName: 'Muster',
      }),
    ).toBe('Beispiel AG');
    expect(
      representRecord(customers, {
        id: 2,
        organization: null,
        firstName: 'Anna',
        lastName: 'Muster',
      }),
    ).toBe('Anna Muster');
    expect(
      representRecord(customers, { id: 3, organization: '', firstName: '', lastName: 'Muster' }),
    ).toBe('Muster');
  });
});

describe('picker options sorted by their label in the user’s language', () => {
  const german = deMessages.enums.country as Record<string, string>;
  const countries = loadResourceModels()
    .find((model) => model.name === 'customers')
    ?.fields.find((field) => field.name === 'nationality');
  if (!countries) throw new Error('no customers.nationality');
  const translate = (key: string) => german[key.replace('enums.country.', '')] ?? key;

  it('puts umlauts beside their base letter, as a German reader expects', () => {
    const names = sortByLabel(
      ['Zypern', 'Österreich', 'Ostafrika', 'Oman', 'oman', 'Ägypten', 'Afghanistan'],
      (name) => name,
      'de',
    );
    expect(names).toEqual([
      'Afghanistan',
      'Ägypten',
      'oman',
      'Oman',
      'Ostafrika',
      'Österreich',
      'Zypern',
    ]);
  });

  it('orders digits by value and keeps equal labels in their order', () => {
    expect(sortByLabel(['Säule 10', 'Säule 3b', 'Säule 3a'], (name) => name, 'de')).toEqual([
      'Säule 3a',
      'Säule 3b',
      'Säule 10',
    ]);
    const twins = [
      { id: 2, name: 'Muster' },
      { id: 1, name: 'Muster' },
    ];
    expect(sortByLabel(twins, (item) => item.name, 'de').map((item) => item.id)).toEqual([2, 1]);
  });

  it('sorts the 250 nationalities by their German names: Österreich between Oman and Osttimor', () => {
    const choices = sortedEnumChoices(countries.schema, 'country', translate, 'de');
    expect(choices).toHaveLength(countries.enumValues?.length ?? 0);
    const names = choices.map((choice) => choice.name);
    expect(names[0]).toBe('Afghanistan');
    const austria = names.indexOf('Österreich');
    expect(names[austria - 1]).toBe('Oman');
    expect(names[austria + 1]).toBe('Osttimor');
    expect(names.at(-1)).not.toBe('Österreich');
    expect(choices.find((choice) => choice.name === 'Schweiz')?.id).toBe('CH');
    // Åland (AX, "Ålandinseln") sorts under A, not after Z as its code or a byte order would.
    expect(names.indexOf('Ålandinseln')).toBeLessThan(names.indexOf('Albanien'));
  });

  it('sorts by the language of the user: French names in French order', () => {
    const french = frMessages.enums.country as Record<string, string>;
    const choices = sortedEnumChoices(
      countries.schema,
      'country',
      (key) => french[key.replace('enums.country.', '')] ?? key,
      'fr',
    );
    const names = choices.map((choice) => choice.name);
    // É sorts as E: "Égypte" right after "Dominique", before "Émirats arabes unis" and "Espagne".
    expect(names[names.indexOf('Égypte') - 1]).toBe('Dominique');
    expect(names.indexOf('Égypte')).toBeLessThan(names.indexOf('Espagne'));
    expect(names.indexOf('Espagne')).toBeLessThan(names.indexOf('Fidji'));
  });

  it('is long enough for type-ahead, short enums are not', () => {
    expect(sortedEnumChoices(countries.schema, 'country', translate, 'de').length).toBeGreaterThan(
      LONG_LIST,
    );
    const gender = loadResourceModels()
      .find((model) => model.name === 'customers')
      ?.fields.find((field) => field.name === 'gender');
    expect(gender?.enumValues?.length ?? 99).toBeLessThanOrEqual(LONG_LIST);
  });
});

describe('type-ahead matches what people type', () => {
  it('ignores accents and case', () => {
    expect(matchesTyped('oster', 'Österreich')).toBe(true);
    expect(matchesTyped('ÖSTER', 'Osterinsel')).toBe(true);
    expect(matchesTyped('muller', 'Anna Müller')).toBe(true);
    expect(matchesTyped('strasse', 'Hauptstraße')).toBe(true);
    expect(matchesTyped('  reich ', 'Österreich')).toBe(true);
    expect(matchesTyped('', 'Österreich')).toBe(true);
    expect(matchesTyped('ostr', 'Österreich')).toBe(false);
  });
});
