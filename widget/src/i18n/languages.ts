/**
 * The languages the element speaks, and how a locale picks one: a region falls back to its
 * language ("pt-BR" is Portuguese), an unknown language to English. English is built in (en.ts);
 * each other language is a module of its own in locales/, fetched when a shopper needs it.
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
const ALIASES: Record<string, LanguageCode> = { iw: 'he' };

/** The language of a BCP 47 tag, or undefined when the element does not speak it. */
export function languageOf(locale: string): LanguageCode | undefined {
  const primary = primaryOf(locale);
  return ALIASES[primary] ?? LANGUAGES.find((l) => l === primary);
}

const primaryOf = (locale: string): string => locale.toLowerCase().split(/[-_]/)[0] ?? '';

export function isRightToLeft(locale: string): boolean {
  return RTL.includes(primaryOf(locale));
}
