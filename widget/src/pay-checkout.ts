/**
 * The package entry: registers `<pay-checkout>` and exports everything public. Importing it twice
 * (npm bundle plus CDN script) must not throw, so registration checks first.
 */
// The styles and the card brands' table first, although the element imports them anyway:
// modules are laid out in the CDN file in the order they are first imported, and the file
// compresses best (gzip -9) with these two at its start, the English strings where the element
// imports them (measured by trying orders: 55 B less than without these imports, 23 B less than
// the styles and the English strings first).
import './pay-checkout.styles.js';
import '../../contract/card/brands.js';
import { PayCheckoutElement } from './pay-checkout-element.js';

export type * from '../../contract/api-types.js';
export { BRANDS, type Brand, type BrandId, detectBrand } from '../../contract/card/brands.js';
export { ApiError, type ApiErrorCode } from './api.js';
export type { CardField } from './card/validate.js';
export type { Clock, Env } from './env.js';
export type * from './events.js';
export {
  checkStrings,
  LANGUAGES,
  type LanguageCode,
  type StringKey,
  type StringProblem,
  type Strings,
} from './i18n/index.js';
export { type ChallengeMode, PayCheckoutElement, type PayMode } from './pay-checkout-element.js';

// A literal (not a constant) so the custom elements manifest analyzer can read the tag name.
if (!customElements.get('pay-checkout')) customElements.define('pay-checkout', PayCheckoutElement);

declare global {
  interface HTMLElementTagNameMap {
    'pay-checkout': PayCheckoutElement;
  }
}
