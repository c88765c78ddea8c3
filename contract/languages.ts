/**
 * The languages the checkout speaks, the element and the backend's own pages alike, and how a
 * locale picks one: a region falls back to its language ("pt-BR" is Portuguese). The element's
 * words are in widget/src/i18n (English built in, each other language a module fetched when a
 * shopper needs it); the pages' in server/src/checkout/page-words.
 */
export const LANGUAGES = [
  'en',
  'ru',
  'uk',
  'de',
  'fr',
  'es',
  'it',
  'pt',
  'pl',
  'tr',
  'nl',
  'cs',
  'ro',
  'kk',
  'ar',
  'he',
] as const;

export type LanguageCode = (typeof LANGUAGES)[number];

/** Languages written right to left (a merchant may bring Persian or Urdu words of their own). */
const RTL: readonly string[] = ['ar', 'he', 'fa', 'ur'];

/** Old codes browsers still send for a language we speak. */
const ALIASES: ReadonlyMap<string, LanguageCode> = new Map([['iw', 'he']]);

/**
 * The language of a BCP 47 tag, or undefined when the element does not speak it. The tag is
 * anyone's (a browser's Accept-Language, a page's `lang`): it is looked up in a Map, never as an
 * object's key, so `constructor` or `__proto__` is just a language we do not speak.
 */
export function languageOf(locale: string): LanguageCode | undefined {
  const primary = primaryOf(locale);
  return ALIASES.get(primary) ?? LANGUAGES.find((l) => l === primary);
}

const primaryOf = (locale: string): string => locale.toLowerCase().split(/[-_]/)[0] ?? '';

export function isRightToLeft(locale: string): boolean {
  return RTL.includes(primaryOf(locale));
}
