/**
 * `browserLanguage` for EMV: a BCP 47 tag of at most 8 characters. Real browsers and in-app
 * WebViews report odd values (`en_US`, `zh-Hant-TW-x-private`, `C`, `*`), and a language is no
 * reason to refuse a payment, so anything is turned into a valid tag, `en` at worst. Pure. Applied
 * to the `language` of every BrowserInfo the backend accepts (schemas.ts); the widget sends the
 * browser's own value, so this code stays out of the CDN file.
 */

const PRIMARY = /^[A-Za-z]{2,3}$/;
const SUBTAG = /^[A-Za-z0-9]{1,8}$/;
const REGION = /^[A-Za-z]{2}$|^\d{3}$/;

export function emvLanguage(tag: string | undefined): string {
  const parts = (tag ?? '')
    .trim()
    .replace(/_/g, '-')
    .split('-')
    .filter((p) => p !== '');
  const privateUse = parts.findIndex((p, i) => i > 0 && p.length === 1);
  const subtags = privateUse === -1 ? parts : parts.slice(0, privateUse);
  const [primary, ...rest] = subtags;
  if (!primary || !PRIMARY.test(primary) || !rest.every((p) => SUBTAG.test(p))) return 'en';
  const full = [primary.toLowerCase(), ...rest].join('-');
  if (full.length <= 8) return full;
  // Cut to 8 without leaving a broken tag: "zh-Hant-TW" becomes "zh-TW", not "zh-Hant-".
  const region = rest.find((p) => REGION.test(p));
  return region ? `${primary.toLowerCase()}-${region}` : primary.toLowerCase();
}
