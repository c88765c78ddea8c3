/**
 * The billing country's choices and where it starts. Names come from the browser
 * (`Intl.DisplayNames`) in the language shown, sorted as that language sorts (`Intl.Collator`),
 * so the element carries codes only, never 249 names in 16 languages.
 */
import { codesOf } from '../../../contract/address.js';
import type { SessionView } from '../../../contract/api-types.js';

/**
 * The 249 ISO 3166-1 alpha-2 codes, in alphabetical order: contract/address.ts's COUNTRY_CODES
 * as a bitmap (codesOf), 114 characters in the CDN file where the list takes 747 that compress
 * badly (about 450 B of gzip). test/widget/shopper/countries.test.ts keeps the two equal.
 */
export const COUNTRIES: readonly string[] = codesOf(
  'eFnf7u+93d4nP4QVgNQADgBcCbCf+xUAjQYYeA9AQAMAHSv0QYFP/fz/1yVLCAABQDyPUwEAAEAAUfH95zq7n5pBEARXhUAAAkAAAAAAEAAIBEAAAQ==',
);

const lists = new Map<string, [code: string, name: string][]>();

/** Every country as [code, name] in `language`, sorted by name (kept per language). */
export function countryChoices(language: string): [code: string, name: string][] {
  let list = lists.get(language);
  if (!list) {
    let names: Intl.DisplayNames;
    let order = new Intl.Collator();
    try {
      names = new Intl.DisplayNames(language, { type: 'region' });
      order = new Intl.Collator(language);
    } catch {
      // A merchant's own language tag the browser cannot read: English names, the default order.
      names = new Intl.DisplayNames('en', { type: 'region' });
    }
    list = COUNTRIES.map((c): [string, string] => [c, names.of(c) ?? c]).sort((a, b) =>
      order.compare(a[1], b[1]),
    );
    lists.set(language, list);
  }
  return list;
}

/**
 * The country the address starts on: the merchant's (`prefill`), else their hint, else the
 * region of the browser's first language that names one ("de-AT": AT), else none ('').
 */
export function startCountry(info: SessionView, languages: readonly string[]): string {
  const regions = languages.map((l) => {
    try {
      return new Intl.Locale(l).region;
    } catch {
      // Not always a BCP 47 tag: WebKitGTK under LANG=C says "c", which Intl.Locale refuses.
      return undefined;
    }
  });
  return (
    [info.prefill?.billingAddress?.country, info.countryHint, ...regions].find(
      (c) => c && COUNTRIES.includes(c),
    ) ?? ''
  );
}
