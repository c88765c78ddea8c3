/**
 * The package entry: registers `<pay-checkout>` and exports everything public. Importing it twice
 * (npm bundle plus CDN script) must not throw, so registration checks first.
 */
import { PayCheckoutElement } from './pay-checkout-element.js';

export { ApiError, type ApiErrorCode } from './api.js';
export type * from './api-types.js';
export { BRANDS, type Brand, type BrandId, detectBrand } from './card/brands.js';
export type { CardField } from './card/validate.js';
export type { Clock, Env } from './env.js';
export type * from './events.js';
export { type ChallengeMode, PayCheckoutElement, type PayMode } from './pay-checkout-element.js';

export const TAG = 'pay-checkout';

if (!customElements.get(TAG)) customElements.define(TAG, PayCheckoutElement);

declare global {
  interface HTMLElementTagNameMap {
    'pay-checkout': PayCheckoutElement;
  }
}
