/**
 * Languages as data the element checks before use (PCI DSS 6.4.3: the payment page runs no code
 * of ours but the one pinned file). The CDN build writes each language as JSON beside its file
 * (`locales/<code>.json`) and a list of their sha384 hashes (`locales/index.json`), and bakes the
 * list's own hash into the file: the list is fetched with that `integrity`, each language with
 * the list's. A file changed by one byte fails the browser's check and is never read.
 */
import type { Strings } from './en.js';

const get = (url: URL, integrity: string | undefined): Promise<unknown> =>
  fetch(url, { integrity }).then((r) => (r.ok ? r.json() : Promise.reject(r.status)));

/**
 * A loader of languages beside `base` (the CDN file's URL), vouched for by `integrity` (the
 * list's hash). It rejects when a file is missing, changed or unreadable; the list is asked for
 * once, and again after a failure.
 */
export function languageData(base: string, integrity: string) {
  let list: Promise<Record<string, string>> | undefined;
  return (language: string): Promise<Strings> => {
    list ??= get(new URL('locales/index.json', base), integrity) as Promise<Record<string, string>>;
    return list.then(
      (hashes) =>
        hashes[language]
          ? (get(new URL(`locales/${language}.json`, base), hashes[language]) as Promise<Strings>)
          : Promise.reject(language),
      (error: unknown) => {
        list = undefined;
        throw error;
      },
    );
  };
}
