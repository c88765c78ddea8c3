/**
 * Checkout sessions: what the merchant's server fixed (amount, currency, intent, description,
 * customer, return URL) and where the shopper is (open -> paying -> completed, or cancelled /
 * expired). A session takes exactly one payment: `claimForPayment` moves it open -> paying and
 * creates its order in one transaction, so a double submit gets the existing order back.
 */
import { randomUUID } from 'node:crypto';
import type { Intent, SessionState } from '../../../widget/src/api-types.js';
import { PayCheckoutError } from '../errors.js';
import {
  createOrderRepository,
  type JsonObject,
  mapOrder,
  type NewOrder,
  type Order,
} from './orders.js';
import { sanitizeRecord } from './sanitize.js';
import {
  assertMinor,
  type Executor,
  inTransaction,
  json,
  toDate,
  toInt,
  toStringOrNull,
} from './sql.js';

export interface CheckoutSession {
  id: string;
  /** The merchant's order id; the session's order is created with it as `client_orderid`. */
  clientOrderId: string;
  amountMinor: number;
  currency: string;
  intent: Intent;
  description: string;
  customer: JsonObject;
  returnUrl: string | null;
  metadata: JsonObject;
  state: SessionState;
  orderId: string | null;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

export interface NewCheckoutSession {
  /** Defaults to a random UUID. */
  id?: string;
  clientOrderId: string;
  amountMinor: number;
  currency: string;
  intent: Intent;
  description?: string;
  customer?: JsonObject;
  returnUrl?: string | null;
  metadata?: JsonObject;
  expiresAt: Date;
}

/** Order fields known when the shopper pays (never card data beyond brand / last four). */
export type PaymentOrderFields = Pick<
  NewOrder,
  'id' | 'returnRef' | 'merchantOrigin' | 'cardBrand' | 'cardLast4' | 'cardMasked' | 'nextAction'
>;

export type ClaimResult =
  | { won: true; session: CheckoutSession; order: Order }
  | { won: false; reason: 'not-found'; session: null; order: null }
  /** Already paying or done: `order` is the payment under way (a double submit). */
  | { won: false; reason: 'already-claimed'; session: CheckoutSession; order: Order | null }
  | { won: false; reason: 'expired' | 'closed'; session: CheckoutSession; order: Order | null };

export interface SessionWrite {
  won: boolean;
  session: CheckoutSession | null;
}

export function mapSession(row: Record<string, unknown>): CheckoutSession {
  return {
    id: String(row.id),
    clientOrderId: String(row.client_orderid),
    amountMinor: toInt(row.amount_minor, 'checkout_sessions.amount_minor'),
    currency: String(row.currency),
    intent: row.intent as Intent,
    description: String(row.description),
    customer: row.customer as JsonObject,
    returnUrl: toStringOrNull(row.return_url),
    metadata: row.metadata as JsonObject,
    state: row.state as SessionState,
    orderId: toStringOrNull(row.order_id),
    expiresAt: toDate(row.expires_at),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    version: toInt(row.version, 'checkout_sessions.version'),
  };
}

export function createSessionRepository(q: Executor) {
  const get = async (id: string, on = q as Executor): Promise<CheckoutSession | null> => {
    const { rows } = await on.query('select * from checkout_sessions where id = $1', [id]);
    return rows[0] ? mapSession(rows[0]) : null;
  };
  const orderOf = async (session: CheckoutSession, on: Executor): Promise<Order | null> => {
    if (!session.orderId) return null;
    const { rows } = await on.query('select * from orders where id = $1', [session.orderId]);
    return rows[0] ? mapOrder(rows[0]) : null;
  };

  return {
    async create(input: NewCheckoutSession): Promise<CheckoutSession> {
      assertMinor(input.amountMinor, 'amountMinor');
      const { rows } = await q.query(
        `insert into checkout_sessions (id, client_orderid, amount_minor, currency, intent,
           description, customer, return_url, metadata, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9::jsonb, $10)
         returning *`,
        [
          input.id ?? randomUUID(),
          input.clientOrderId,
          input.amountMinor,
          input.currency,
          input.intent,
          input.description ?? '',
          // Merchant-supplied JSON: sanitised too, so a PAN pasted there never lands on disk.
          json(sanitizeRecord(input.customer ?? {})),
          input.returnUrl ?? null,
          json(sanitizeRecord(input.metadata ?? {})),
          input.expiresAt,
        ],
      );
      if (!rows[0]) throw new PayCheckoutError('store-insert', 'Session insert returned no row');
      return mapSession(rows[0]);
    },

    get: (id: string) => get(id),

    async getByClientOrderId(clientOrderId: string): Promise<CheckoutSession | null> {
      const { rows } = await q.query('select * from checkout_sessions where client_orderid = $1', [
        clientOrderId,
      ]);
      return rows[0] ? mapSession(rows[0]) : null;
    },

    /**
     * open -> paying exactly once, creating the session's order (status `new`, the session's
     * amount, currency, intent and order id: nothing the browser sends can change them). An open
     * session past its expiry becomes `expired` instead.
     */
    claimForPayment(sessionId: string, fields: PaymentOrderFields = {}): Promise<ClaimResult> {
      return inTransaction(q, async (tx) => {
        const claimed = await tx.query(
          `update checkout_sessions set state = 'paying', updated_at = now(), version = version + 1
           where id = $1 and state = 'open' and expires_at > now() returning *`,
          [sessionId],
        );
        if (!claimed.rows[0]) {
          // Lost: say why, from the row as it now stands (an expired one is marked so).
          const expired = await tx.query(
            `update checkout_sessions set state = 'expired', updated_at = now(), version = version + 1
             where id = $1 and state = 'open' and expires_at <= now() returning *`,
            [sessionId],
          );
          const session = expired.rows[0] ? mapSession(expired.rows[0]) : await get(sessionId, tx);
          if (!session) return { won: false, reason: 'not-found', session: null, order: null };
          const order = await orderOf(session, tx);
          if (session.state === 'paying' || session.state === 'completed') {
            return { won: false, reason: 'already-claimed', session, order };
          }
          return {
            won: false,
            reason: session.state === 'expired' ? 'expired' : 'closed',
            session,
            order,
          };
        }
        const session = mapSession(claimed.rows[0]);
        // The session's own amount, currency, intent and order id: never the browser's.
        const order = await createOrderRepository(tx).create({
          ...fields,
          clientOrderId: session.clientOrderId,
          sessionId: session.id,
          intent: session.intent,
          amountMinor: session.amountMinor,
          currency: session.currency,
        });
        const linked = await tx.query(
          `update checkout_sessions set order_id = $2 where id = $1 returning *`,
          [session.id, order.id],
        );
        return { won: true, session: mapSession(linked.rows[0] as Record<string, unknown>), order };
      });
    },

    /** Moves the session to `to` only if its state is one of `from`. */
    async transition(
      id: string,
      change: { from: readonly SessionState[]; to: SessionState },
    ): Promise<SessionWrite> {
      const { rows } = await q.query(
        `update checkout_sessions set state = $2, updated_at = now(), version = version + 1
         where id = $1 and state = any($3::text[]) returning *`,
        [id, change.to, [...change.from]],
      );
      if (rows[0]) return { won: true, session: mapSession(rows[0]) };
      return { won: false, session: await get(id) };
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
