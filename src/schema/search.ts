/**
 * What the generic list search (`search=`) does with the words people type, shared by the server
 * (server/crud/search.ts builds the SQL) and the browser. Isomorphic: imports nothing from `src/`.
 *
 * Text is compared folded: accents and umlauts taken off Latin letters (`Müller` → `muller`,
 * `Zürich` → `zurich`, `Genève` → `geneve`), `ß` → `ss`, `æ`/`œ` → `ae`/`oe`, lower case. The
 * database folds stored values with the SQL function `gscrm_fold(text)` (migration 0014), which
 * must fold exactly like `foldSearchText` — a test compares the two on every mapped letter.
 */

/** Latin letters with marks, by the plain letter they fold to. */
const MARKED_LETTERS: Readonly<Record<string, string>> = {
  a: 'àáâãäåāăąÀÁÂÃÄÅĀĂĄ',
  c: 'çćĉċčÇĆĈĊČ',
  d: 'ďđðĎĐÐ',
  e: 'èéêëēĕėęěÈÉÊËĒĔĖĘĚ',
  g: 'ĝğġģĜĞĠĢ',
  h: 'ĥħĤĦ',
  i: 'ìíîïĩīĭįıÌÍÎÏĨĪĬĮİ',
  j: 'ĵĴ',
  k: 'ķĶ',
  l: 'ĺļľŀłĹĻĽĿŁ',
  n: 'ñńņňÑŃŅŇ',
  o: 'òóôõöøōŏőÒÓÔÕÖØŌŎŐ',
  r: 'ŕŗřŔŖŘ',
  s: 'śŝşšșſŚŜŞŠȘ',
  t: 'ţťŧțŢŤŦȚ',
  u: 'ùúûüũūŭůűųÙÚÛÜŨŪŬŮŰŲ',
  w: 'ŵŴ',
  y: 'ýÿŷÝŸŶ',
  z: 'źżžŹŻŽ',
};

/** The one-to-one map as SQL `translate(text, FOLD_FROM, FOLD_TO)` takes it (same length). */
export const FOLD_FROM = Object.values(MARKED_LETTERS).join('');
export const FOLD_TO = Object.entries(MARKED_LETTERS)
  .map(([plain, marked]) => plain.repeat([...marked].length))
  .join('');

/** Letters that fold to two (applied before the one-to-one map, as the SQL function does). */
export const FOLD_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['ß', 'ss'],
  ['ẞ', 'ss'],
  ['æ', 'ae'],
  ['Æ', 'ae'],
  ['œ', 'oe'],
  ['Œ', 'oe'],
];

const FOLD_MAP: ReadonlyMap<string, string> = new Map(
  Object.entries(MARKED_LETTERS).flatMap(([plain, marked]) =>
    [...marked].map((letter) => [letter, plain] as const),
  ),
);

/**
 * Text as the search compares it (see the top of the file). Lowered letter by letter, as SQL
 * `lower()` does (JavaScript's whole-string lowering would write a final sigma as ς).
 */
export function foldSearchText(text: string): string {
  let out = text;
  for (const [from, to] of FOLD_PAIRS) out = out.split(from).join(to);
  return [...out].map((letter) => FOLD_MAP.get(letter) ?? letter.toLowerCase()).join('');
}

/** German spellings of umlauts without them (`mueller` for `Müller`). */
const UMLAUT_DIGRAPHS: ReadonlyArray<readonly [RegExp, string]> = [
  [/ae/g, 'a'],
  [/oe/g, 'o'],
  [/ue/g, 'u'],
];

/**
 * The folded forms a search word may match, the word's own first: `mueller` also looks for
 * `muller` (the stored `Müller` folds to it), `müller` also for `mueller` (the stored `Mueller`).
 * Stored values are folded only one way, so a value containing `ue` still matches any part of it
 * (`Samuel` is found by `el`).
 */
export function searchVariants(word: string): string[] {
  const variants = [foldSearchText(word)];
  const spelledOut = word.replace(/[äÄ]/g, 'ae').replace(/[öÖ]/g, 'oe').replace(/[üÜ]/g, 'ue');
  if (spelledOut !== word) variants.push(foldSearchText(spelledOut));
  let collapsed = variants[0];
  for (const [digraph, letter] of UMLAUT_DIGRAPHS) collapsed = collapsed.replace(digraph, letter);
  if (collapsed !== variants[0]) variants.push(collapsed);
  return [...new Set(variants)];
}

/** The words of a search query (split on white space). */
export function searchWords(query: string | undefined): string[] {
  return (query ?? '').trim().split(/\s+/).filter(Boolean);
}
