/**
 * Fetches a language's strings. English is in the element; every other language is loaded on
 * first use and kept for the page's life:
 * - from the CDN file, as data checked against hashes the build baked into the file
 *   (language-data.ts): the page runs no other code of ours;
 * - from the ESM build, as a module (`import()` of locales/<code>.js). The import names its
 *   folder literally, so bundlers (Vite, webpack, Rollup) emit every language as a chunk of its
 *   own, which their Subresource Integrity plugins then cover.
 */

import type { LanguageCode } from '../../../contract/languages.js';
import { en, type Strings } from './en.js';
import { languageData } from './language-data.js';

/** The CDN build's hash of locales/index.json (scripts/language-data.mjs); absent elsewhere. */
declare const __PAY_CHECKOUT_LANGUAGES__: string | undefined;

const fetchLanguage: (language: LanguageCode) => Promise<Strings> =
  typeof __PAY_CHECKOUT_LANGUAGES__ === 'string'
    ? languageData(import.meta.url, __PAY_CHECKOUT_LANGUAGES__)
    : (language) => import(`./locales/${language}.js`).then((m: { default: Strings }) => m.default);

const loaded = new Map<LanguageCode, Promise<Strings>>();

/** The strings of `language`; English when its file cannot be had (offline, blocked, changed). */
export function loadLanguage(language: LanguageCode): Promise<Strings> {
  if (language === 'en') return Promise.resolve(en);
  let strings = loaded.get(language);
  if (!strings) {
    strings = fetchLanguage(language).catch(() => {
      // Forget the failure: the next element (or a reconnect) tries again.
      loaded.delete(language);
      return en;
    });
    loaded.set(language, strings);
  }
  return strings;
}
