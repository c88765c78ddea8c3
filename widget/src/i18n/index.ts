/** Language choice, message templates and amount formatting. */
import { LANGUAGES, STRINGS, type StringKey } from './strings.js';

export type { StringKey } from './strings.js';

/** A language of STRINGS, by its column: 0 is English. */
export type Language = number;

/** The language of a BCP 47 tag ("ru-RU" is Russian), English when we do not have it. */
export function languageOf(locale: string | undefined): Language {
  const primary = (locale ?? '').toLowerCase().split(/[-_]/)[0];
  return Math.max(0, (LANGUAGES as readonly (string | undefined)[]).indexOf(primary));
}

/** The string `key` in `language`, its `{name}` slots filled. */
export function t(
  language: Language,
  key: StringKey,
  vars: Record<string, string | number> = {},
): string {
  const text: string = STRINGS[key][language] ?? STRINGS[key][0];
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? `{${k}}`));
}

/** "€10.42" / "10,42 €": the currency's own minor digits, the shopper's locale conventions. */
export function formatAmount(amount: string, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}
