/**
 * A message with its values in: the form of each plural block that the count takes in the
 * language shown (`Intl.PluralRules`), then its `{slots}` filled. Every language file and a
 * merchant's override stay plain text (a language ships as JSON data), so a plural is written in
 * the text, in the subset of ICU MessageFormat that translators' tools know:
 *
 *   'The security code has {n, plural, one {# digit} other {# digits}}.'
 *
 * The forms are CLDR's categories (`zero one two few many other`, each language uses some) or an
 * exact count (`=0`); `#` is the count; `other` is required and stands in for any form left out.
 * A form holds no braces: the message's other slots go outside the block.
 */
import { isRightToLeft } from '../../../contract/languages.js';

/** A plural block: its slot's name, then its forms (`one {# digit} other {# digits}`). */
export const PLURAL = /\{\s*(\w+)\s*,\s*plural\s*,((?:\s*=?\w+\s*\{[^{}]*\})+)\s*\}/g;

/**
 * `text` in `language` with `vars` in: each plural block's form for its count, each `{slot}`
 * filled (a slot with no value stays as written). In right-to-left text each value is isolated
 * (U+2068 FSI … U+2069 PDI): a masked card number "400000******0002" or an amount is a
 * left-to-right run whose neutral asterisks and spaces would otherwise take the sentence's
 * direction and swap its digit groups. The isolate takes the value's own first strong direction,
 * left to right when it has none, so an Arabic list of field names stays right to left.
 */
export function fill(
  text: string,
  vars: Record<string, string | number> = {},
  language = 'en',
): string {
  const [open, close] = isRightToLeft(language) ? ['\u2068', '\u2069'] : ['', ''];
  return text
    .replace(PLURAL, (_, k: string, forms: string) => {
      const n = Number(vars[k]);
      const f: Record<string, string> = Object.fromEntries(
        [...forms.matchAll(/(=?\w+)\s*\{([^}]*)\}/g)].map((m) => [m[1], m[2]]),
      );
      let rule = 'other';
      try {
        rule = new Intl.PluralRules(language).select(n);
      } catch {
        // A merchant's tag Intl cannot read: `other`, the form every block has.
      }
      // `#` becomes the slot again, filled (and isolated) with the others below.
      return (f[`=${n}`] ?? f[rule] ?? f.other ?? '').replaceAll('#', `{${k}}`);
    })
    .replace(/\{(\w+)\}/g, (slot, k: string) =>
      vars[k] === undefined ? slot : open + vars[k] + close,
    );
}
