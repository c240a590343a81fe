/** Search words (src/schema/search.ts); the SQL twin is compared in server/crud/search.test.ts. */
import { describe, expect, it } from 'vitest';
import { foldSearchText, searchVariants, searchWords } from './search.ts';

describe('search text', () => {
  it('folds accents, umlauts, ß and case', () => {
    expect(foldSearchText('Müller')).toBe('muller');
    expect(foldSearchText('ZÜRICH')).toBe('zurich');
    expect(foldSearchText('Genève Neuchâtel')).toBe('geneve neuchatel');
    expect(foldSearchText('Straße')).toBe('strasse');
    expect(foldSearchText('Œuvre Æsir')).toBe('oeuvre aesir');
    expect(foldSearchText('Dvořák Łódź')).toBe('dvorak lodz');
    expect(foldSearchText('8050 +41793225035')).toBe('8050 +41793225035');
  });

  it('also looks for the other German spelling of an umlaut', () => {
    expect(searchVariants('mueller')).toEqual(['mueller', 'muller']);
    expect(searchVariants('Müller')).toEqual(['muller', 'mueller']);
    expect(searchVariants('Jäger')).toEqual(['jager', 'jaeger']);
    expect(searchVariants('Schroeder')).toEqual(['schroeder', 'schroder']);
    expect(searchVariants('muller')).toEqual(['muller']);
  });

  it('splits a query on white space', () => {
    expect(searchWords('  anna   müller ')).toEqual(['anna', 'müller']);
    expect(searchWords(undefined)).toEqual([]);
  });
});
