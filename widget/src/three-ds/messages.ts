/**
 * Checks `message` events from the backend's return pages. Anything can post to our window (ads,
 * extensions, the ACS itself), so a message counts only when it comes from the backend's exact
 * origin, has the ReturnMessage shape, and names the order we are paying.
 */
import type { ReturnMessage } from '../api-types.js';

const TYPES: readonly ReturnMessage['type'][] = ['method-complete', 'challenge-complete', 'final'];

export function isReturnMessage(data: unknown): data is ReturnMessage {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  return (
    d.source === 'pay-checkout' &&
    typeof d.type === 'string' &&
    (TYPES as readonly string[]).includes(d.type) &&
    typeof d.orderId === 'string'
  );
}

/** The message, if it is one we trust for this order; undefined otherwise (ignored silently). */
export function acceptReturnMessage(
  event: MessageEvent,
  expectedOrigin: string,
  orderId: string,
): ReturnMessage | undefined {
  if (event.origin !== expectedOrigin) return undefined;
  let data: unknown = event.data;
  // A page may post JSON text instead of an object; accept both, check the shape either way.
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      return undefined;
    }
  }
  if (!isReturnMessage(data) || data.orderId !== orderId) return undefined;
  return { source: data.source, type: data.type, orderId: data.orderId };
}
