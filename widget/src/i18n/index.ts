/** Languages, message templates and amount formatting. */

export {
  isRightToLeft,
  LANGUAGES,
  type LanguageCode,
  languageOf,
} from '../../../contract/languages.js';
export { en, type StringKey, type Strings } from './en.js';
export { loadLanguage } from './load.js';
export { checkStrings, type StringProblem, withOverrides } from './strings.js';

/** `text` with its `{name}` slots filled. */
export function fill(text: string, vars: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (slot, k: string) => String(vars[k] ?? slot));
}

/** "€10.42" / "10,42 €": the currency's own minor digits, the shopper's locale conventions. */
export function formatAmount(amount: string, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}
