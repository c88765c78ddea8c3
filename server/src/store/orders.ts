/**
 * Orders: one card payment (sale or preauth) from `new` to a final gateway status, with its 3-D
 * Secure progress and the money captured and returned afterwards.
 *
 * Every write that moves an order is one conditional UPDATE (compare-and-set on the status and/or
 * the version). Several instances may act on one order at once (a 3DS return on one, a callback
 * on another, the reconciler on a third); the database decides which one wins, and the loser is
 * told so together with the order as it now stands.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Intent } from '../../../contract/api-types.js';
import { FINAL_STATUSES } from '../../../contract/order-status.js';
import { StoreError } from './errors.js';
import { sanitizeCustomer } from './sanitize.js';
import {
  assertMinor,
  assignments,
  decodeCursor,
  type Executor,
  encodeCursor,
  json,
  toDate,
  toDateOrNull,
  toInt,
  toStringOrNull,
} from './sql.js';
import { assertMoves, type OrderState } from './state-moves.js';

/** An order's states and the moves between them: state-moves.ts. */
export type { OrderState } from './state-moves.js';

/** Never sent to the gateway: the shopper has not paid (yet, or ever). */
export const UNPAID_ORDER_STATUSES: readonly OrderState[] = ['awaiting-payment', 'expired'];

export const FINAL_ORDER_STATUSES: readonly OrderState[] = FINAL_STATUSES;
/** Final without the money: the shopper may try another card (payments/attempts.ts). */
export const FAILED_ORDER_STATUSES: readonly OrderState[] = ['declined', 'error', 'filtered'];
/** Not final: the reconciler asks the gateway about these when they stay put too long. */
export const PENDING_ORDER_STATUSES: readonly OrderState[] = ['new', 'processing', 'unknown'];

export type JsonObject = Record<string, unknown>;

export interface Order {
  id: string;
  /** Insertion order; backs list cursors. */
  seq: number;
  /** This attempt's id at the gateway (`client_orderid`): the merchant's order id for the first. */
  clientOrderId: string;
  /** The merchant's order id: the checkout order this attempt belongs to. */
  merchantOrderId: string;
  /** 1 for the first payment attempt of a checkout order, 2 for the next, ... */
  attempt: number;
  /** When the shopper left this attempt's bank page for another attempt (it is still followed). */
  abandonedAt: Date | null;
  /** Why this approved attempt is reversed (another attempt of its order was approved first). */
  reversalReason: string | null;
  /** When its reversal (void or return, full amount) was approved. */
  reversedAt: Date | null;
  /** The gateway's `orderid`, once it answered. */
  gatewayOrderId: string | null;
  sessionId: string | null;
  intent: Intent;
  amountMinor: number;
  currency: string;
  status: OrderState;
  capturedMinor: number;
  returnedMinor: number;
  voidedAt: Date | null;
  /** What the browser must do next (the backend's own JSON shape), or null. */
  nextAction: JsonObject | null;
  threeDsServerTransId: string | null;
  threeDsMethodUrl: string | null;
  /** The 3DS Method result the browser reported: Y, N or U. */
  threeDsCompInd: 'Y' | 'N' | 'U' | null;
  cardBrand: string | null;
  cardLast4: string | null;
  /** First six and last four at most, e.g. "411111******1111". */
  cardMasked: string | null;
  reason: string | null;
  errorCode: string | null;
  /** Opaque, random, unique: the path segment of this order's `redirect_url`. */
  returnRef: string;
  /** The merchant page's exact origin, the only target of the return page's postMessage. */
  merchantOrigin: string | null;
  /** Keep this attempt's card once it is approved: the shopper agreed, or the session saves always. */
  saveCard: boolean;
  /** The card reference this attempt charged (the shopper paid with a saved card), else null. */
  savedCardRef: string | null;
  /**
   * The customer this attempt carried to the gateway: the session's, merged with what the shopper
   * typed (or a saved card knew). Null before it was paid, and for attempts made before issue 35.
   */
  customer: JsonObject | null;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

/** Fields that may change alongside (or without) a status change. `null` clears one. */
export interface OrderPatch {
  gatewayOrderId?: string | null;
  nextAction?: JsonObject | null;
  threeDsServerTransId?: string | null;
  threeDsMethodUrl?: string | null;
  threeDsCompInd?: 'Y' | 'N' | 'U' | null;
  cardBrand?: string | null;
  cardLast4?: string | null;
  cardMasked?: string | null;
  reason?: string | null;
  errorCode?: string | null;
  merchantOrigin?: string | null;
  saveCard?: boolean;
  savedCardRef?: string | null;
  customer?: JsonObject | null;
}

export interface NewOrder extends OrderPatch {
  /** A later payment attempt of a checkout order: its number and the merchant's order id. */
  attempt?: { number: number; merchantOrderId: string };
  /** Defaults to a random UUID. */
  id?: string;
  clientOrderId: string;
  intent: Intent;
  amountMinor: number;
  currency: string;
  sessionId?: string | null;
  /** Defaults to `new`; a checkout session's order starts `awaiting-payment`. */
  status?: OrderState;
  /** Defaults to 32 random bytes, base64url. */
  returnRef?: string;
}

/** The outcome of a compare-and-set: `won` says whether this caller's write happened. */
export interface OrderWrite {
  won: boolean;
  /** After the write when won; as it now stands when lost (null: no such order). */
  order: Order | null;
}

export type MoneyRefusal = 'not-found' | 'not-allowed' | 'exceeds-limit';
export type MoneyWrite =
  | { won: true; order: Order }
  | { won: false; order: Order | null; reason: MoneyRefusal };

export interface OrderListFilter {
  status?: OrderState | OrderState[];
  /** Inclusive. */
  createdFrom?: Date;
  /** Exclusive. */
  createdTo?: Date;
  /** 1..500, default 50. */
  limit?: number;
  cursor?: string;
}

export interface OrderPage {
  orders: Order[];
  /** Pass back as `cursor` for the next (older) page; null when there is none. */
  nextCursor: string | null;
}

const PATCH_COLUMNS = {
  gatewayOrderId: { column: 'gateway_orderid' },
  nextAction: { column: 'next_action', cast: 'jsonb', encode: json },
  threeDsServerTransId: { column: 'three_ds_server_trans_id' },
  threeDsMethodUrl: { column: 'three_ds_method_url' },
  threeDsCompInd: { column: 'three_ds_comp_ind' },
  cardBrand: { column: 'card_brand' },
  cardLast4: { column: 'card_last4' },
  cardMasked: { column: 'card_masked' },
  reason: { column: 'reason' },
  errorCode: { column: 'error_code' },
  merchantOrigin: { column: 'merchant_origin' },
  saveCard: { column: 'save_card' },
  savedCardRef: { column: 'saved_card_ref' },
  customer: {
    column: 'customer',
    cast: 'jsonb',
    encode: (value: unknown) =>
      value === null ? null : json(sanitizeCustomer(value as JsonObject)),
  },
};

export function newReturnRef(): string {
  return randomBytes(32).toString('base64url');
}

export function mapOrder(row: Record<string, unknown>): Order {
  return {
    id: String(row.id),
    seq: toInt(row.seq, 'orders.seq'),
    clientOrderId: String(row.client_orderid),
    merchantOrderId: toStringOrNull(row.merchant_orderid) ?? String(row.client_orderid),
    attempt: toInt(row.attempt ?? 1, 'orders.attempt'),
    abandonedAt: toDateOrNull(row.abandoned_at),
    reversalReason: toStringOrNull(row.reversal_reason),
    reversedAt: toDateOrNull(row.reversed_at),
    gatewayOrderId: toStringOrNull(row.gateway_orderid),
    sessionId: toStringOrNull(row.session_id),
    intent: row.intent as Intent,
    amountMinor: toInt(row.amount_minor, 'orders.amount_minor'),
    currency: String(row.currency),
    status: row.status as OrderState,
    capturedMinor: toInt(row.captured_minor, 'orders.captured_minor'),
    returnedMinor: toInt(row.returned_minor, 'orders.returned_minor'),
    voidedAt: toDateOrNull(row.voided_at),
    nextAction: (row.next_action as JsonObject | null) ?? null,
    threeDsServerTransId: toStringOrNull(row.three_ds_server_trans_id),
    threeDsMethodUrl: toStringOrNull(row.three_ds_method_url),
    threeDsCompInd: (row.three_ds_comp_ind as Order['threeDsCompInd']) ?? null,
    cardBrand: toStringOrNull(row.card_brand),
    cardLast4: toStringOrNull(row.card_last4),
    cardMasked: toStringOrNull(row.card_masked),
    reason: toStringOrNull(row.reason),
    errorCode: toStringOrNull(row.error_code),
    returnRef: String(row.return_ref),
    merchantOrigin: toStringOrNull(row.merchant_origin),
    saveCard: row.save_card === true,
    savedCardRef: toStringOrNull(row.saved_card_ref),
    customer: (row.customer as JsonObject | null) ?? null,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    version: toInt(row.version, 'orders.version'),
  };
}

export function createOrderRepository(q: Executor) {
  const one = async (sql: string, params: unknown[]): Promise<Order | null> => {
    const { rows } = await q.query(sql, params);
    return rows[0] ? mapOrder(rows[0]) : null;
  };
  const get = (id: string) => one('select * from orders where id = $1', [id]);

  /** Runs a conditional update; on a loss, reads the order as it now stands. */
  const compareAndSet = async (id: string, sql: string, params: unknown[]): Promise<OrderWrite> => {
    const won = await one(sql, params);
    return won ? { won: true, order: won } : { won: false, order: await get(id) };
  };

  /** The attempts of several sessions' orders in one query (a page of orders), by session. */
  const attemptsOfSessions = async (
    sessionIds: readonly string[],
  ): Promise<Map<string, Order[]>> => {
    const bySession = new Map<string, Order[]>();
    if (sessionIds.length === 0) return bySession;
    const { rows } = await q.query(
      'select * from orders where session_id = any($1::text[]) order by session_id, attempt',
      [[...sessionIds]],
    );
    for (const order of rows.map(mapOrder)) {
      const id = order.sessionId as string;
      bySession.set(id, [...(bySession.get(id) ?? []), order]);
    }
    return bySession;
  };

  return {
    async create(input: NewOrder): Promise<Order> {
      assertMinor(input.amountMinor, 'amountMinor');
      const { sql, params } = assignments(
        {
          gatewayOrderId: input.gatewayOrderId,
          nextAction: input.nextAction,
          threeDsServerTransId: input.threeDsServerTransId,
          threeDsMethodUrl: input.threeDsMethodUrl,
          threeDsCompInd: input.threeDsCompInd,
          cardBrand: input.cardBrand,
          cardLast4: input.cardLast4,
          cardMasked: input.cardMasked,
          reason: input.reason,
          errorCode: input.errorCode,
          merchantOrigin: input.merchantOrigin,
          saveCard: input.saveCard,
          savedCardRef: input.savedCardRef,
          customer: input.customer,
        },
        PATCH_COLUMNS,
        10,
      );
      // Reuse the patch whitelist for the optional columns: "col = $n" -> "col" and "$n".
      const extraColumns = sql.map((s) => s.slice(0, s.indexOf(' = ')));
      const extraValues = sql.map((s) => s.slice(s.indexOf(' = ') + 3));
      const order = await one(
        `insert into orders (id, client_orderid, session_id, intent, amount_minor, currency, return_ref,
           status, attempt, merchant_orderid ${extraColumns.map((c) => `, ${c}`).join('')})
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10 ${extraValues.map((v) => `, ${v}`).join('')})
         returning *`,
        [
          input.id ?? randomUUID(),
          input.clientOrderId,
          input.sessionId ?? null,
          input.intent,
          input.amountMinor,
          input.currency,
          input.returnRef ?? newReturnRef(),
          input.status ?? 'new',
          input.attempt?.number ?? 1,
          input.attempt?.merchantOrderId ?? null,
          ...params,
        ],
      );
      if (!order) throw new StoreError('store-insert', 'Order insert returned no row');
      return order;
    },

    get,

    /**
     * The order, its row locked until the caller's transaction ends: a money operation (capture,
     * void, return) checks and reserves under it, so those on one order run one at a time.
     */
    lockForMoneyOperation: (id: string) =>
      one('select * from orders where id = $1 for update', [id]),

    getByClientOrderId: (clientOrderId: string) =>
      one('select * from orders where client_orderid = $1', [clientOrderId]),
    getByGatewayOrderId: (gatewayOrderId: string) =>
      one('select * from orders where gateway_orderid = $1', [gatewayOrderId]),
    getByReturnRef: (returnRef: string) =>
      one('select * from orders where return_ref = $1', [returnRef]),

    /**
     * Moves the order to `to` only if its status is one of `from` (and, when given, its version is
     * `version`), applying `patch` in the same statement. Exactly one of two racing callers wins.
     * A move from one of `from` to `to` that the table of moves lacks (state-moves.ts) is refused
     * with StateMoveRefusedError before anything is written.
     */
    async transition(
      id: string,
      change: { from: readonly OrderState[]; to: OrderState; patch?: OrderPatch; version?: number },
    ): Promise<OrderWrite> {
      assertMoves('order', change.from, change.to);
      const { sql, params } = assignments({ ...change.patch }, PATCH_COLUMNS, 3);
      params.unshift(id, change.to, [...change.from]);
      let versionCheck = '';
      if (change.version !== undefined) {
        params.push(change.version);
        versionCheck = ` and version = $${params.length}`;
      }
      return compareAndSet(
        id,
        `update orders set status = $2, ${sql.map((s) => `${s}, `).join('')}
           updated_at = now(), version = version + 1
         where id = $1 and status = any($3::text[])${versionCheck}
         returning *`,
        params,
      );
    },

    /** Changes fields without moving the status, if nobody changed the order since `version`. */
    update(id: string, change: { version: number; patch: OrderPatch }): Promise<OrderWrite> {
      const { sql, params } = assignments({ ...change.patch }, PATCH_COLUMNS, 2);
      return compareAndSet(
        id,
        `update orders set ${sql.map((s) => `${s}, `).join('')} updated_at = now(), version = version + 1
         where id = $1 and version = $2 returning *`,
        [id, change.version, ...params],
      );
    },

    /**
     * Adds a capture of an approved, not voided preauth; refused when it would exceed the hold.
     * Call it when the gateway approved the capture (or before sending, as a reservation).
     */
    recordCapture(id: string, amountMinor: number): Promise<MoneyWrite> {
      assertMinor(amountMinor, 'amountMinor');
      return moneyWrite(
        id,
        `update orders set captured_minor = captured_minor + $2, updated_at = now(), version = version + 1
         where id = $1 and intent = 'preauth' and status = 'approved' and voided_at is null
           and captured_minor + $2 <= amount_minor
         returning *`,
        [id, amountMinor],
        (o) => o.intent === 'preauth' && o.status === 'approved' && o.voidedAt === null,
      );
    },

    /**
     * Adds a return (refund) of settled money: a sale's amount, or what a preauth captured.
     * Refused beyond that. Releasing an uncaptured hold is `recordVoid`.
     */
    recordReturn(id: string, amountMinor: number): Promise<MoneyWrite> {
      assertMinor(amountMinor, 'amountMinor');
      return moneyWrite(
        id,
        `update orders set returned_minor = returned_minor + $2, updated_at = now(), version = version + 1
         where id = $1 and status = 'approved'
           and returned_minor + $2 <= case when intent = 'sale' then amount_minor else captured_minor end
         returning *`,
        [id, amountMinor],
        (o) => o.status === 'approved',
      );
    },

    /** Marks an approved preauth's hold released (void, or return of an uncaptured preauth). */
    recordVoid(id: string): Promise<MoneyWrite> {
      return moneyWrite(
        id,
        `update orders set voided_at = now(), updated_at = now(), version = version + 1
         where id = $1 and intent = 'preauth' and status = 'approved' and voided_at is null
           and captured_minor = 0
         returning *`,
        [id],
        // A void has no amount to exceed: every refusal is "not allowed".
        () => false,
      );
    },

    /** The payment attempts of a checkout session's order, first to last. */
    attemptsOf: async (sessionId: string): Promise<Order[]> =>
      (await attemptsOfSessions([sessionId])).get(sessionId) ?? [],

    attemptsOfSessions,

    /** A pending attempt whose bank page the shopper left: once, and only while pending. */
    markAbandoned: (id: string) =>
      compareAndSet(
        id,
        `update orders set abandoned_at = now(), updated_at = now(), version = version + 1
         where id = $1 and abandoned_at is null and status = any($2::text[]) returning *`,
        [id, [...PENDING_ORDER_STATUSES]],
      ),

    /** An approved attempt that must not be kept: why, once. */
    markForReversal: (id: string, reason: string) =>
      compareAndSet(
        id,
        `update orders set reversal_reason = $2, updated_at = now(), version = version + 1
         where id = $1 and status = 'approved' and reversal_reason is null returning *`,
        [id, reason.slice(0, 500)],
      ),

    /** Its reversal was approved: once (the caller that wins announces it). */
    markReversed: (id: string) =>
      compareAndSet(
        id,
        `update orders set reversed_at = now(), updated_at = now(), version = version + 1
         where id = $1 and reversal_reason is not null and reversed_at is null returning *`,
        [id],
      ),

    /** Attempts to reverse, untouched for `olderThanSeconds`, oldest first. */
    async dueForReversal(options: { olderThanSeconds: number; limit?: number }): Promise<Order[]> {
      const { rows } = await q.query(
        `select * from orders
         where reversal_reason is not null and reversed_at is null
           and updated_at < now() - make_interval(secs => $1)
         order by updated_at limit $2`,
        [options.olderThanSeconds, options.limit ?? 50],
      );
      return rows.map(mapOrder);
    },

    /** Newest first, for `GET /v1/orders`. */
    async list(filter: OrderListFilter = {}): Promise<OrderPage> {
      const limit = Math.min(Math.max(Math.trunc(filter.limit ?? 50), 1), 500);
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        where.push(sql.replace('?', `$${params.length}`));
      };
      if (filter.status !== undefined) {
        // The order's status is its kept attempt's (the approved one), else its latest attempt's.
        add(
          `coalesce(
             (select k.status from orders k where k.session_id = o.session_id
                and k.status = 'approved' and k.reversal_reason is null limit 1),
             (select l.status from orders l where l.session_id = o.session_id
                order by l.attempt desc limit 1),
             o.status) = any(?::text[])`,
          Array.isArray(filter.status) ? filter.status : [filter.status],
        );
      }
      if (filter.createdFrom) add('created_at >= ?', filter.createdFrom);
      if (filter.createdTo) add('created_at < ?', filter.createdTo);
      if (filter.cursor) add('seq < ?', decodeCursor(filter.cursor));
      // The merchant's orders: their first attempts (a later attempt is listed within its order).
      where.push('attempt = 1');
      params.push(limit + 1);
      const { rows } = await q.query(
        `select o.* from orders o ${where.length ? `where ${where.join(' and ')}` : ''}
         order by seq desc limit $${params.length}`,
        params,
      );
      const orders = rows.slice(0, limit).map(mapOrder);
      const last = orders.at(-1);
      return { orders, nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
    },

    /** Pending orders untouched for `olderThanSeconds`, oldest first: the reconciler's work list. */
    async needingReconciliation(options: {
      olderThanSeconds: number;
      limit?: number;
    }): Promise<Order[]> {
      const { rows } = await q.query(
        `select * from orders
         where status = any($1::text[]) and updated_at < now() - make_interval(secs => $2)
         order by updated_at limit $3`,
        [[...PENDING_ORDER_STATUSES], options.olderThanSeconds, options.limit ?? 100],
      );
      return rows.map(mapOrder);
    },
  };

  async function moneyWrite(
    id: string,
    sql: string,
    params: unknown[],
    allowed: (order: Order) => boolean,
  ): Promise<MoneyWrite> {
    const won = await one(sql, params);
    if (won) return { won: true, order: won };
    const order = await get(id);
    if (!order) return { won: false, order: null, reason: 'not-found' };
    return { won: false, order, reason: allowed(order) ? 'exceeds-limit' : 'not-allowed' };
  }
}

export type OrderRepository = ReturnType<typeof createOrderRepository>;
