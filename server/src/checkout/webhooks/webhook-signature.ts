/**
 * The signature of our webhooks to the merchant: HMAC-SHA256 under WEBHOOK_SECRET over
 * `${timestamp}.${body}`. The timestamp is inside the signed string so a captured event cannot be
 * replayed later with a fresh time; receivers reject timestamps outside their tolerance.
 *
 * Header: `Pay-Checkout-Signature: t=<unix seconds>,v1=<lowercase hex>`.
 */
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../signing/index.js';

export const SIGNATURE_HEADER = 'Pay-Checkout-Signature';

/** `body`: the exact bytes sent (a string is its UTF-8 bytes). */
export function signWebhook(secret: string, body: string | Uint8Array, timestamp: number): string {
  const mac = createHmac('sha256', secret)
    .update(`${timestamp}.`, 'utf8')
    .update(body)
    .digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

export interface VerifyWebhookOptions {
  /** How far the signed time may be from now, either way (default 300 s). */
  toleranceSeconds?: number;
  /** The clock, in Unix seconds (tests); default now. */
  nowSeconds?: number;
}

/**
 * What a merchant's receiver does (`pay-checkout/server` exports it): true only for a signature
 * by `secret` over exactly `rawBody` (the bytes received, before any JSON parsing) with a
 * timestamp within the tolerance. Compared in constant time.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  options: VerifyWebhookOptions = {},
): boolean {
  const { toleranceSeconds = 300, nowSeconds = Math.floor(Date.now() / 1000) } = options;
  const parts = Object.fromEntries(
    (signatureHeader ?? '').split(',').map((kv) => {
      const at = kv.indexOf('=');
      return [kv.slice(0, at).trim(), kv.slice(at + 1).trim()];
    }),
  );
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds)
    return false;
  return constantTimeEqual(
    signWebhook(secret, rawBody, timestamp),
    `t=${timestamp},v1=${parts.v1 ?? ''}`,
  );
}
