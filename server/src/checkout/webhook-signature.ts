/**
 * The signature of our webhooks to the merchant: HMAC-SHA256 under WEBHOOK_SECRET over
 * `${timestamp}.${body}`. The timestamp is inside the signed string so a captured event cannot be
 * replayed later with a fresh time; receivers reject timestamps outside their tolerance.
 *
 * Header: `Pay-Checkout-Signature: t=<unix seconds>,v1=<lowercase hex>`.
 */
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../signing/index.js';

export const SIGNATURE_HEADER = 'Pay-Checkout-Signature';

export function signWebhook(secret: string, body: string, timestamp: number): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** What a merchant's receiver does (exported for tests and the README example). */
export function verifyWebhook(
  secret: string,
  body: string,
  header: string | undefined,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = Object.fromEntries(
    (header ?? '').split(',').map((kv) => {
      const at = kv.indexOf('=');
      return [kv.slice(0, at).trim(), kv.slice(at + 1).trim()];
    }),
  );
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds)
    return false;
  return constantTimeEqual(
    signWebhook(secret, body, timestamp),
    `t=${timestamp},v1=${parts.v1 ?? ''}`,
  );
}
