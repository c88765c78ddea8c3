/**
 * A merchant's own words: overrides of any string by its key (the element's `strings` property),
 * checked before use. An override that names an unknown key, is not text, or drops or invents a
 * `{slot}` of the English string is refused, and the element's own string shows instead: a
 * shopper never reads "Pay {amount}" raw. A plural block (`{n, plural, one {…} other {…}}`,
 * fill.ts) counts as its slot `{n}`; one with no `other` form is refused too. A block that does
 * not parse leaves its slot missing: refused as `slots`.
 */
import { en, type StringKey, type Strings } from './en.js';
import { PLURAL } from './fill.js';

/** Why an override was refused. */
export interface StringProblem {
  key: string;
  problem: 'unknown-key' | 'not-text' | 'slots' | 'plural';
  /** For `slots`: the slots the string must have, e.g. `{amount}`. */
  expected?: string;
}

const slotsOf = (text: string): string =>
  (text.replace(PLURAL, '{$1}').match(/\{\w+\}/g) ?? []).sort().join(' ');

/** Every problem of `overrides`; an empty list when all of them can be used. */
export function checkStrings(overrides: Record<string, unknown>): StringProblem[] {
  const problems: StringProblem[] = [];
  for (const [key, text] of Object.entries(overrides)) {
    if (!Object.hasOwn(en, key)) problems.push({ key, problem: 'unknown-key' });
    else if (typeof text !== 'string') problems.push({ key, problem: 'not-text' });
    else {
      const expected = slotsOf(en[key as StringKey]);
      if (slotsOf(text) !== expected) problems.push({ key, problem: 'slots', expected });
      // A form that is no CLDR category is never chosen; `other` is the form of last resort.
      else if ([...text.matchAll(PLURAL)].some((m) => !/(^|\})\s*other\s*\{/.test(m[2]!)))
        problems.push({ key, problem: 'plural' });
    }
  }
  return problems;
}

/** `base` with the usable overrides laid over it, and the problems of the others. */
export function withOverrides(
  base: Strings,
  overrides: Partial<Record<StringKey, string>> | undefined,
): { strings: Strings; problems: StringProblem[] } {
  if (!overrides) return { strings: base, problems: [] };
  const problems = checkStrings(overrides);
  const strings = { ...base };
  for (const [key, text] of Object.entries(overrides)) {
    if (!problems.some((p) => p.key === key)) strings[key as StringKey] = text as string;
  }
  return { strings, problems };
}
