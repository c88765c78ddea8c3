/**
 * The package entry: registers `<pay-checkout>` and exports everything public. Importing it twice
 * (npm bundle plus CDN script) must not throw, so registration checks first.
 */
// The styles and the English strings first, although the element imports them anyway: modules
// are laid out in the CDN file in the order they are first imported, and their text compresses
// better at the start of the file than between Lit's code and ours.
import './pay-checkout.styles.js';
import './i18n/en.js';
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
