/** Locale lookup, message templates and amount formatting. */
import { en, type StringKey, type Strings } from './en.js';
import { ru } from './ru.js';

export type { StringKey, Strings } from './en.js';

const TABLES: Record<string, Strings> = { en, ru };

/** The table for a BCP 47 tag ("ru-RU" uses ru), English when we do not have the language. */
export function stringsFor(locale: string | undefined): Strings {
  const lang = (locale ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  return TABLES[lang] ?? en;
}

/** Fills `{name}` slots. */
export function t(
  table: Strings,
  key: StringKey,
  vars: Record<string, string | number> = {},
): string {
  return table[key].replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? `{${k}}`));
}

/** "€10.42" / "10,42 €": the currency's own minor digits, the shopper's locale conventions. */
export function formatAmount(amount: string, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}
