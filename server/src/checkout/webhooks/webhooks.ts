/**
 * Merchant webhooks: on every final status, an event is written to an outbox table (so a crash
 * between the status change and the POST loses nothing) and a sender delivers it to WEBHOOK_URL,
 * signed (webhook-signature.ts), retrying with exponential backoff capped at an hour, for three
 * days (nextTry). Rows are claimed with
 * `for update skip locked` and a lease, so several instances never post one event together.
 *
 * With no WEBHOOK_URL, events are written all the same, marked not configured: `GET /v1/events`
 * is then a feed the shop polls, and the sender never tries them (nor does it once a URL is
 * configured later: only what is made from then on is sent). Every event is purged once older
 * than the retention (purgeOldEvents), unless still being retried.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_EVENT_RETENTION_DAYS } from '../../config.js';
import type { CheckoutRepositories, MerchantWebhook, Order } from '../../store/index.js';
import type { Context, Timing } from '../context.js';
import { merchantOrderView } from '../payments/views.js';
import { SIGNATURE_HEADER, signWebhook } from './webhook-signature.js';

export interface WebhookEvent {
  id: string;
  type: string;
  createdAt: string;
  /** False when the gateway is a sandbox: no real money moved. */
  livemode: boolean;
  data: Record<string, unknown>;
}

/** Where an event is queued: the store, or the transaction that makes the status change. */
export type Outbox = Pick<CheckoutRepositories, 'webhooks'>;

/**
 * Queues `order.<status>` (kept, not delivered, when no webhook URL is configured). `outbox`: the
 * transaction of the status change, so that the change and its event commit together.
 */
export async function enqueueOrderWebhook(
  ctx: Context,
  order: Order,
  outbox: Outbox = ctx.store,
  attempts?: readonly Order[],
): Promise<void> {
  await enqueueEvent(
    ctx,
    `order.${order.status}`,
    { order: merchantOrderView(order, attempts, !ctx.config.testMode) },
    order.id,
    outbox,
  );
}

export async function enqueueEvent(
  ctx: Context,
  type: string,
  data: Record<string, unknown>,
  orderId: string | null,
  outbox: Outbox = ctx.store,
): Promise<void> {
  const event: WebhookEvent = {
    id: randomUUID(),
    type,
    createdAt: new Date().toISOString(),
    livemode: !ctx.config.testMode,
    data,
  };
  await outbox.webhooks.enqueue({
    event: type,
    payload: { ...event },
    orderId,
    notConfigured: !ctx.config.webhook,
  });
}

async function deliver(ctx: Context, row: MerchantWebhook, fetchImpl: typeof fetch): Promise<void> {
  const webhook = ctx.config.webhook;
  if (!webhook) return;
  const body = JSON.stringify(row.payload);
  const signature = signWebhook(webhook.secret, body, Math.floor(Date.now() / 1000));
  let error: string | null = null;
  try {
    const res = await fetchImpl(webhook.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        [SIGNATURE_HEADER]: signature,
        'Pay-Checkout-Event-Id': String(row.payload.id),
      },
      body,
      signal: AbortSignal.timeout(ctx.timing.webhookTimeoutMs),
      redirect: 'error',
    });
    await res.body?.cancel().catch(() => {});
    if (res.status < 200 || res.status >= 300) error = `HTTP ${res.status}`;
  } catch (e) {
    error = e instanceof Error ? e.name : 'fetch failed';
  }
  if (error === null) {
    await ctx.store.webhooks.markDelivered(row.id);
    return;
  }
  const attempts = row.attempts + 1;
  ctx.logger.warn(
    { webhookId: row.id, event: row.event, attempts, error },
    'webhook delivery failed',
  );
  await ctx.store.webhooks.markFailed(row.id, {
    error,
    retryAt: nextTry(ctx.timing, row, attempts),
  });
}

/**
 * When to try a failed event again: the backoff doubles per attempt up to its cap; null (give
 * up) once the next try would fall past the retry window counted from the event's creation, or
 * from its last redelivery (the merchant asked for it again: the usual retries follow).
 */
export function nextTry(
  timing: Pick<Timing, 'webhookBackoffMs' | 'webhookBackoffCapMs' | 'webhookRetryForMs'>,
  event: { createdAt: Date; redeliveredAt?: Date | null },
  attempts: number,
  now = Date.now(),
): Date | null {
  const delayMs = Math.min(
    timing.webhookBackoffMs * 2 ** Math.min(attempts - 1, 30),
    timing.webhookBackoffCapMs,
  );
  const at = now + delayMs;
  const from = (event.redeliveredAt ?? event.createdAt).getTime();
  return at - from > timing.webhookRetryForMs ? null : new Date(at);
}

/** One pass: delivers what is due; answers how many were tried. */
export async function deliverDueWebhooks(
  ctx: Context,
  fetchImpl: typeof fetch = fetch,
): Promise<number> {
  if (!ctx.config.webhook) return 0;
  const leaseSeconds = Math.ceil(ctx.timing.webhookTimeoutMs / 1000) + 5;
  const rows = await ctx.store.webhooks.due({ limit: 20, leaseSeconds });
  await Promise.all(rows.map((row) => deliver(ctx, row, fetchImpl)));
  return rows.length;
}

/** How often the background timer purges events past their retention. */
export const EVENT_PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Deletes the events older than the retention (`eventRetentionDays`) that are done with:
 * delivered, given up, or kept with no endpoint. One still being retried is kept until it is.
 */
export function purgeOldEvents(ctx: Context): Promise<number> {
  return ctx.store.webhooks.purgeOlderThan(
    ctx.config.eventRetentionDays ?? DEFAULT_EVENT_RETENTION_DAYS,
  );
}
