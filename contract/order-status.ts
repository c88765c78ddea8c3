/**
 * The gateway's transaction statuses as the widget API reports them (`OrderStatus` in
 * api-types.ts), written once: which are final and which a status answer may carry. The store,
 * the status applier and the element all read these lists.
 */
import type { OrderStatus } from './api-types.js';

/** The gateway's final word: once an order has one, nothing moves it again. */
export const FINAL_STATUSES = ['approved', 'declined', 'error', 'filtered'] as const;

export type FinalStatus = (typeof FINAL_STATUSES)[number];

/** Every status a gateway answer may carry: the final ones, and the two that go on. */
export const GATEWAY_STATUSES = [
  ...FINAL_STATUSES,
  'processing',
  'unknown',
] as const satisfies readonly OrderStatus[];

/** A final status of the gateway's (any other string, or a state of ours, is not). */
export function isFinal(status: string): status is FinalStatus {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}
