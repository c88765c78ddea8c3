/**
 * Fetches a language's strings. English is in the element; every other language is a module
 * beside it (locales/<code>.js), imported on first use and kept for the page's life. The import
 * names its folder literally, so bundlers (Vite, webpack, Rollup) emit every language as a chunk
 * of its own and the CDN build writes them beside its file; a browser loading the ESM files
 * directly resolves the path from this module's URL.
 */

import type { LanguageCode } from '../../../contract/languages.js';
import { en, type Strings } from './en.js';

const loaded = new Map<LanguageCode, Promise<Strings>>();

/** The strings of `language`; English when its file cannot be fetched (offline, blocked). */
export function loadLanguage(language: LanguageCode): Promise<Strings> {
  if (language === 'en') return Promise.resolve(en);
  let strings = loaded.get(language);
  if (!strings) {
    strings = import(`./locales/${language}.js`).then(
      (m: { default: Strings }) => m.default,
      () => {
        // Forget the failure: the next element (or a reconnect) tries again.
        loaded.delete(language);
        return en;
      },
    );
    loaded.set(language, strings);
  }
  return strings;
}
