/**
 * The one log line for a gateway URL we refused to follow (contract/safe-url.ts says which pass).
 * At `error`: a gateway sending `javascript:` or plain-http addresses is broken or attacked, and
 * someone must look. The URL is cut short; it is the gateway's text, never card data.
 */
import type { Context } from '../context.js';
import type { RefusedUrl } from '../following/next-action.js';

export function logRefusedUrl(
  ctx: Context,
  where: { orderId: string } | { operationId: string },
  refused: RefusedUrl,
): void {
  ctx.logger.error(
    { ...where, field: refused.field, url: refused.url.slice(0, 200) },
    'gateway URL refused: only https (or http to loopback) is followed',
  );
}
