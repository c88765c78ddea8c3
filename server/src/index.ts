/**
 * `pay-checkout/server`: the companion backend as a library (docs/backend.md#use-it-as-a-library).
 *
 *   const payCheckout = createPayCheckout({ gateway, merchantApiKey, jwtSecret, publicUrl, database });
 *   app.use('/pay', payCheckout.router);
 *   await payCheckout.start();
 *
 * and `verifyWebhook` for the merchant's webhook receiver.
 */
import type { PayCheckoutOptions } from './library/options.js';
import { createPayCheckout as create, type PayCheckout } from './library/pay-checkout.js';

export {
  SIGNATURE_HEADER,
  type VerifyWebhookOptions,
  verifyWebhook,
} from './checkout/webhooks/webhook-signature.js';
export type { WebhookEvent } from './checkout/webhooks/webhooks.js';
export { ConfigError } from './config.js';
export type { PayCheckoutOptions } from './library/options.js';
export type { PayCheckout, PayCheckoutRouter } from './library/pay-checkout.js';

/**
 * Validates `options` now (a ConfigError names the first bad field, secrets included) and returns
 * the backend: mount `router` at the path `options.publicUrl` ends with, then `start()` it.
 */
export function createPayCheckout(options: PayCheckoutOptions): PayCheckout {
  return create(options);
}
