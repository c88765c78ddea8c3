/**
 * The backend's public URLs for an order, one file: its return page (3DS notification, TermUrl,
 * the gateway's redirect_url), the gateway's callback, the page that serves its gateway `html`
 * (http/gateway-page/route.ts), and the launcher page of its current browser step
 * (http/launcher/route.ts). Kept apart from the routes so that domain code imports no router.
 */
import type { Order } from '../../store/index.js';
import type { Context } from '../context.js';
import { fingerprint, readFlow } from '../following/flow-state.js';
import type { StoredAction } from '../following/next-action.js';

export function returnUrlOf(ctx: Context, order: Order): string {
  return `${ctx.config.publicUrl}/return/${order.returnRef}`;
}

export function callbackUrl(ctx: Context): string {
  return `${ctx.config.publicUrl}/callbacks/gateway`;
}

/**
 * Where the backend serves an order's gateway page (http/gateway-page/route.ts serves it; payments
 * name it in an `html` next action).
 */
export const GATEWAY_PAGE_PATH = '/gateway-page';

/** Where the widget loads an order's gateway page. */
export function gatewayPageUrl(publicUrl: string, returnRef: string): string {
  return `${publicUrl}${GATEWAY_PAGE_PATH}/${returnRef}`;
}

export const LAUNCH_PATH = '/launch';

/**
 * Which step a launch URL means: a hash of the stored action (any change makes a new key). Its
 * fields in name order: the store (jsonb) does not keep the order they were written in.
 */
export function launchKey(action: StoredAction): string {
  const fields = Object.entries(action).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return fingerprint(JSON.stringify(fields));
}

/** The launcher page of the order's current step, when the step has one (the widget loads it). */
export function launchUrlOf(ctx: Context, order: Order): string | undefined {
  const stored = readFlow(order).next;
  const launches =
    (stored.action === 'method' && stored.methodUrl !== undefined) ||
    stored.action === 'challenge' ||
    stored.action === '3ds1' ||
    stored.action === 'html' ||
    stored.action === 'redirect';
  return launches
    ? `${ctx.config.publicUrl}${LAUNCH_PATH}/${order.returnRef}/${launchKey(stored)}`
    : undefined;
}
