/**
 * What every part of the backend shares: configuration, store, gateway client, logger, timing and
 * the in-process wake-up signal. Built once by createCheckoutApp.
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import type { EventEmitter } from 'node:events';
import type { CheckoutConfig } from '../config.js';
import type { GatewayClient } from '../gateway/index.js';
import type { CheckoutStore } from '../store/index.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

/** The gateway client as the backend uses it: one typed method per operation. */
export type Gateway = GatewayClient;

/** Every delay the backend uses; tests shorten them. */
export interface Timing {
  /**
   * The pause between the first two status polls of an order (or of its new state): the first is
   * sent at once, the second this soon after, capped by pollMinMs (following/poll-schedule.ts).
   */
  firstPollMs: number;
  /** The pause before the third poll, then multiplied by 1.5 up to pollMaxMs. */
  pollMinMs: number;
  pollMaxMs: number;
  /**
   * While the shopper is on a page we do not see (3DS Method, challenge, 1.0.2 page, the gateway's
   * own 3DS page): the pause between two status polls of the order, slow and bounded.
   */
  browserStepPollMs: number;
  /** Upper bound of GET /widget/next?wait= (the contract says 25 s). */
  longPollMaxMs: number;
  /** Session lifetime when the merchant does not say. */
  sessionMinutes: number;
  /**
   * The reconciler's period, and how long an order must sit still before it asks the gateway;
   * also how long a charge of a card reference, reserved and not answered, holds off its forget.
   */
  reconcileEveryMs: number;
  reconcileAfterSeconds: number;
  /**
   * Webhook delivery: period of the sender; the backoff base, doubled per failed attempt up to
   * the cap; and how long after its creation an event is still retried (then given up).
   */
  webhookEveryMs: number;
  webhookBackoffMs: number;
  webhookBackoffCapMs: number;
  webhookRetryForMs: number;
  webhookTimeoutMs: number;
  /** After a capture, void or return: how long to follow the gateway for its answer. */
  operationFollowMs: number;
  /**
   * How long a gateway call claimed in the store and not yet answered (a 3DS upload, a capture,
   * void or return) may still be on its way: longer than the gateway client's timeout (30 s),
   * after which that call has ended one way or the other, or its instance is dead. Only then may
   * another instance (or request) pick the claim up and find out whether to send it again.
   */
  sendLeaseMs: number;
}

export const DEFAULT_TIMING: Timing = {
  firstPollMs: 250,
  pollMinMs: 1_000,
  pollMaxMs: 5_000,
  browserStepPollMs: 5_000,
  longPollMaxMs: 25_000,
  sessionMinutes: 30,
  reconcileEveryMs: 30_000,
  reconcileAfterSeconds: 60,
  webhookEveryMs: 2_000,
  webhookBackoffMs: 2_000,
  // An hour at most between tries, for three days: a shop down for a deploy, a night or a long
  // weekend still hears of every order (the gateway family retries its callbacks for 14 days).
  webhookBackoffCapMs: 3_600_000,
  webhookRetryForMs: 3 * 24 * 3_600_000,
  webhookTimeoutMs: 10_000,
  operationFollowMs: 15_000,
  sendLeaseMs: 45_000,
};

/** Which order (or merchant operation) a gateway call belongs to, for the exchange history. */
export interface CallScope {
  orderId?: string;
  operationId?: string;
}

export interface Context {
  config: CheckoutConfig;
  store: CheckoutStore;
  gateway: Gateway;
  logger: Logger;
  timing: Timing;
  /** `order:<id>` fires when this instance learns something new about an order. */
  events: EventEmitter;
  /** Carries the CallScope into the gateway client's onExchange hook. */
  scope: AsyncLocalStorage<CallScope>;
  /** What an operator watches (metrics.ts); recorded whether or not /metrics is served. */
  metrics: Metrics;
  /** Background work (webhook posts, follow-ups) to await on close. */
  track<T>(promise: Promise<T>): Promise<T>;
  closing: () => boolean;
}

export function notifyOrder(ctx: Context, orderId: string): void {
  ctx.events.emit(`order:${orderId}`);
}

/** Runs `fn` with gateway calls recorded against `scope`. */
export function inScope<T>(ctx: Context, scope: CallScope, fn: () => Promise<T>): Promise<T> {
  return ctx.scope.run(scope, fn);
}

/**
 * A map of this instance's own (its polls in flight, poll records, card details it read): one per
 * context, gone with it, never shared with another instance.
 */
export function instanceMap<V>(): (ctx: Context) => Map<string, V> {
  const maps = new WeakMap<Context, Map<string, V>>();
  return (ctx) => {
    let map = maps.get(ctx);
    if (!map) {
      map = new Map();
      maps.set(ctx, map);
    }
    return map;
  };
}
