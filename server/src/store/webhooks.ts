/**
 * The outbox of webhooks to the merchant: enqueue (ideally in the same transaction as the state
 * change that causes it), then a sender takes due ones, posts them and marks each delivered or
 * failed with its next attempt. `due` leases what it returns (pushes `next_attempt_at` ahead), so
 * two instances polling at once do not send the same webhook twice. With no endpoint configured,
 * events are kept all the same, `notConfigured`: listed, never due, purged after the retention.
 */
import { randomUUID } from 'node:crypto';
import { StoreError } from './errors.js';
import type { JsonObject } from './orders.js';
import { sanitizeRecord } from './sanitize.js';
import {
  type Backlog,
  decodeCursor,
  type Executor,
  encodeCursor,
  json,
  readBacklog,
  toDate,
  toDateOrNull,
  toInt,
  toStringOrNull,
} from './sql.js';

export interface MerchantWebhook {
  id: string;
  /** Insertion order; backs list cursors. */
  seq: number;
  /** e.g. "order.approved", "order.declined", "payout.approved". */
  event: string;
  payload: JsonObject;
  orderId: string | null;
  attempts: number;
  nextAttemptAt: Date;
  deliveredAt: Date | null;
  /** Set when the sender gave up. */
  failedAt: Date | null;
  lastError: string | null;
  createdAt: Date;
  /** When the merchant last asked for it again (redeliver): its retries count from then. */
  redeliveredAt: Date | null;
  /** Kept while no webhook endpoint was configured: never sent (unless redelivered). */
  notConfigured: boolean;
}

function mapWebhook(row: Record<string, unknown>): MerchantWebhook {
  return {
    id: String(row.id),
    seq: toInt(row.seq, 'merchant_webhooks.seq'),
    event: String(row.event),
    payload: row.payload as JsonObject,
    orderId: toStringOrNull(row.order_id),
    attempts: toInt(row.attempts, 'merchant_webhooks.attempts'),
    nextAttemptAt: toDate(row.next_attempt_at),
    deliveredAt: toDateOrNull(row.delivered_at),
    failedAt: toDateOrNull(row.failed_at),
    lastError: toStringOrNull(row.last_error),
    createdAt: toDate(row.created_at),
    redeliveredAt: toDateOrNull(row.redelivered_at),
    notConfigured: row.not_configured === true,
  };
}

export interface WebhookListFilter {
  type?: string | undefined;
  orderId?: string | undefined;
  delivered?: boolean | undefined;
  /** 1..500. */
  limit: number;
  cursor?: string | undefined;
}

export interface WebhookPage {
  events: MerchantWebhook[];
  nextCursor: string | null;
}

export function createWebhookRepository(q: Executor) {
  return {
    /** Events neither delivered nor given up on, and the age of the oldest (metrics). */
    undeliveredBacklog: (): Promise<Backlog> =>
      readBacklog(
        q,
        `select count(*)::int as n, extract(epoch from now() - min(created_at))::float as oldest
           from merchant_webhooks
          where delivered_at is null and failed_at is null and not not_configured`,
      ),

    async enqueue(input: {
      event: string;
      payload: JsonObject;
      orderId?: string | null;
      /** Default: now. */
      notBefore?: Date;
      /** No endpoint is configured: kept for `GET /v1/events`, never delivered. */
      notConfigured?: boolean;
    }): Promise<MerchantWebhook> {
      const { rows } = await q.query(
        // The merchant's order id, as the payload names it (schema.ts, eventMerchantOrderId).
        `insert into merchant_webhooks
           (id, event, payload, order_id, next_attempt_at, not_configured, merchant_order_id)
         values ($1, $2, $3::jsonb, $4, coalesce($5::timestamptz, now()), $6,
           coalesce($3::jsonb #>> '{data,order,orderId}', $3::jsonb #>> '{data,orderId}'))
         returning *`,
        [
          randomUUID(),
          input.event,
          // Built by us from orders, but a payload is no place for card data either.
          json(sanitizeRecord(input.payload)),
          input.orderId ?? null,
          input.notBefore ?? null,
          input.notConfigured === true,
        ],
      );
      if (!rows[0]) throw new StoreError('store-insert', 'Webhook insert returned no row');
      return mapWebhook(rows[0]);
    },

    /**
     * Takes up to `limit` webhooks whose time has come, oldest first, and leases them for
     * `leaseSeconds` (default 30): a crashed sender's webhooks come due again after the lease.
     */
    async due(options: { limit?: number; leaseSeconds?: number } = {}): Promise<MerchantWebhook[]> {
      const { rows } = await q.query(
        `update merchant_webhooks set next_attempt_at = now() + make_interval(secs => $2)
         where id in (
           select id from merchant_webhooks
           where delivered_at is null and failed_at is null and not not_configured
             and next_attempt_at <= now()
           order by next_attempt_at, id limit $1
           for update skip locked)
         returning *`,
        [options.limit ?? 20, options.leaseSeconds ?? 30],
      );
      return rows.map(mapWebhook).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    },

    async markDelivered(id: string): Promise<boolean> {
      const { rowCount } = await q.query(
        `update merchant_webhooks set delivered_at = now(), attempts = attempts + 1, last_error = null
         where id = $1 and delivered_at is null`,
        [id],
      );
      return rowCount > 0;
    },

    /** Counts a failed attempt; retries at `retryAt`, or gives up for good when it is null. */
    async markFailed(
      id: string,
      failure: { error: string; retryAt: Date | null },
    ): Promise<MerchantWebhook | null> {
      const { rows } = await q.query(
        `update merchant_webhooks
         set attempts = attempts + 1, last_error = $2,
             next_attempt_at = coalesce($3::timestamptz, next_attempt_at),
             failed_at = case when $3::timestamptz is null then now() end
         where id = $1 and delivered_at is null returning *`,
        [id, failure.error, failure.retryAt],
      );
      return rows[0] ? mapWebhook(rows[0]) : null;
    },

    /** One delivery's outcome by id: how an operator (and the store's test) checks a delivery. */
    async get(id: string): Promise<MerchantWebhook | null> {
      const { rows } = await q.query('select * from merchant_webhooks where id = $1', [id]);
      return rows[0] ? mapWebhook(rows[0]) : null;
    },

    /**
     * Events newest first, for `GET /v1/events`: by type, by the merchant's order id (its order's
     * events and those of its captures, voids, returns, or of the operation made under that id),
     * delivered or not; `cursor` from the previous page.
     */
    async list(filter: WebhookListFilter): Promise<WebhookPage> {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        where.push(sql.replace('?', `$${params.length}`));
      };
      if (filter.type) add('event = ?', filter.type);
      if (filter.orderId) add('merchant_order_id = ?', filter.orderId);
      if (filter.delivered !== undefined)
        where.push(`delivered_at is ${filter.delivered ? 'not ' : ''}null`);
      if (filter.cursor) add('seq < ?', decodeCursor(filter.cursor));
      params.push(filter.limit + 1);
      const { rows } = await q.query(
        `select * from merchant_webhooks ${where.length ? `where ${where.join(' and ')}` : ''}
         order by seq desc limit $${params.length}`,
        params,
      );
      const events = rows.slice(0, filter.limit).map(mapWebhook);
      const last = events.at(-1);
      return {
        events,
        nextCursor: rows.length > filter.limit && last ? encodeCursor(last.seq) : null,
      };
    },

    /** One event by the id its payload carries (the `Pay-Checkout-Event-Id` of its delivery). */
    async byEventId(eventId: string): Promise<MerchantWebhook | null> {
      const { rows } = await q.query("select * from merchant_webhooks where payload->>'id' = $1", [
        eventId,
      ]);
      return rows[0] ? mapWebhook(rows[0]) : null;
    },

    /**
     * Sends the event again now, delivered, given up before or kept with no endpoint: the usual
     * retries follow, counted from now (`attempts` from 0, the retry window from `redelivered_at`).
     */
    async redeliver(id: string): Promise<MerchantWebhook | null> {
      const { rows } = await q.query(
        `update merchant_webhooks set delivered_at = null, failed_at = null, last_error = null,
           next_attempt_at = now(), attempts = 0, redelivered_at = now(), not_configured = false
         where id = $1 returning *`,
        [id],
      );
      return rows[0] ? mapWebhook(rows[0]) : null;
    },

    /**
     * Deletes the events made more than `days` days ago that are done with: delivered, given up,
     * or kept with no endpoint. One still being retried stays until it is delivered or given up.
     * In batches of `batch`, so a first purge of a large table holds no long lock; answers how
     * many went.
     */
    async purgeOlderThan(days: number, batch = 1000): Promise<number> {
      let purged = 0;
      for (;;) {
        const { rowCount } = await q.query(
          `delete from merchant_webhooks where id in (
             select id from merchant_webhooks
             where created_at < now() - make_interval(days => $1)
               and (delivered_at is not null or failed_at is not null or not_configured)
             limit $2)`,
          [days, batch],
        );
        purged += rowCount;
        if (rowCount < batch) return purged;
      }
    },

    async forOrder(orderId: string): Promise<MerchantWebhook[]> {
      const { rows } = await q.query(
        'select * from merchant_webhooks where order_id = $1 order by created_at, id',
        [orderId],
      );
      return rows.map(mapWebhook);
    },
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
