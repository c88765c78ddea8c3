/**
 * What the merchant API creates besides card payments: card references, rebills, recurring
 * payments, payouts, transfers, account verifications, hosted-form links. One generic table:
 * kind, the merchant's id, the gateway's ids, amount, status and a jsonb of the rest (never card
 * data: `data` is sanitised like the history). Status changes are compare-and-set.
 */
import { randomUUID } from 'node:crypto';
import { createClientOrderIdRepository } from './client-order-ids.js';
import { StoreError } from './errors.js';
import type { JsonObject } from './orders.js';
import { sanitizeRecord } from './sanitize.js';
import {
  assertMinor,
  assignments,
  type Backlog,
  type Executor,
  inTransaction,
  json,
  readBacklog,
  toDate,
  toInt,
  toIntOrNull,
  toStringOrNull,
} from './sql.js';

export type MerchantOperationKind =
  | 'card-ref'
  | 'rebill'
  | 'recurring-payment'
  | 'payout'
  | 'transfer'
  | 'account-verification'
  | 'hosted-form'
  // Money movements on a checkout order (partial or full), tracked to their final status.
  | 'capture'
  | 'void'
  | 'return';

/**
 * The merchant operations whose gateway request carries a client_orderid of their own: they claim
 * it in the one namespace of client-order-ids.ts. Follow-on requests (capture, void, return,
 * card-ref) send their transaction's id; a recurring payment sends none.
 */
export const CLAIMING_OPERATION_KINDS = [
  'rebill',
  'payout',
  'transfer',
  'account-verification',
  'hosted-form',
] as const satisfies readonly MerchantOperationKind[];
export type ClaimingOperationKind = (typeof CLAIMING_OPERATION_KINDS)[number];

export function claimsClientOrderId(kind: MerchantOperationKind): kind is ClaimingOperationKind {
  return (CLAIMING_OPERATION_KINDS as readonly string[]).includes(kind);
}

/** Statuses an operation may still leave: the gateway has not said its last word. */
export const PENDING_OPERATION_STATUSES: readonly string[] = ['new', 'processing', 'unknown'];

/** The money movements on a checkout order, serialised one at a time per order. */
export const MONEY_OPERATION_KINDS = ['capture', 'void', 'return'] as const;
export type MoneyOperationKind = (typeof MONEY_OPERATION_KINDS)[number];

export interface MerchantOperation {
  id: string;
  kind: MerchantOperationKind;
  /**
   * The merchant's id for it (`client_orderid`), unique per kind; a kind that sends it as a fresh
   * client_orderid holds it in the one namespace of client-order-ids.ts.
   */
  clientId: string;
  /** The gateway's `orderid` of the transaction, when one. */
  gatewayOrderId: string | null;
  /** The gateway's id of the record: card-ref-id, recurring-payment-id, payout id... */
  gatewayRef: string | null;
  amountMinor: number | null;
  currency: string | null;
  /** Gateway status (approved, declined, ... processing) or our own `new`. */
  status: string;
  data: JsonObject;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

export interface NewMerchantOperation {
  id?: string;
  kind: MerchantOperationKind;
  clientId: string;
  gatewayOrderId?: string | null;
  gatewayRef?: string | null;
  amountMinor?: number | null;
  currency?: string | null;
  status?: string;
  data?: JsonObject;
  /** The card reference it charges (a rebill, a recurring payment, a transfer), if any. */
  cardRefId?: string | null;
}

export interface OperationPatch {
  gatewayOrderId?: string | null;
  gatewayRef?: string | null;
  /** Replaces `data` (sanitised). */
  data?: JsonObject;
}

const PATCH_COLUMNS = {
  gatewayOrderId: { column: 'gateway_orderid' },
  gatewayRef: { column: 'gateway_ref' },
  data: {
    column: 'data',
    cast: 'jsonb',
    encode: (v: unknown) => json(sanitizeRecord(v as JsonObject)),
  },
};

function mapOperation(row: Record<string, unknown>): MerchantOperation {
  return {
    id: String(row.id),
    kind: row.kind as MerchantOperationKind,
    clientId: String(row.client_id),
    gatewayOrderId: toStringOrNull(row.gateway_orderid),
    gatewayRef: toStringOrNull(row.gateway_ref),
    amountMinor: toIntOrNull(row.amount_minor, 'merchant_operations.amount_minor'),
    currency: toStringOrNull(row.currency),
    status: String(row.status),
    data: row.data as JsonObject,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    version: toInt(row.version, 'merchant_operations.version'),
  };
}

export function createOperationRepository(q: Executor) {
  const one = async (sql: string, params: unknown[]) => {
    const { rows } = await q.query(sql, params);
    return rows[0] ? mapOperation(rows[0]) : null;
  };
  const get = (id: string) => one('select * from merchant_operations where id = $1', [id]);
  const insert = async (tx: Executor, id: string, input: NewMerchantOperation) => {
    const { rows } = await tx.query(
      `insert into merchant_operations (id, kind, client_id, gateway_orderid, gateway_ref,
         amount_minor, currency, status, data, card_ref_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10) returning *`,
      [
        id,
        input.kind,
        input.clientId,
        input.gatewayOrderId ?? null,
        input.gatewayRef ?? null,
        input.amountMinor ?? null,
        input.currency ?? null,
        input.status ?? 'new',
        json(sanitizeRecord(input.data ?? {})),
        input.cardRefId ?? null,
      ],
    );
    if (!rows[0]) throw new StoreError('store-insert', 'Operation insert returned no row');
    return mapOperation(rows[0]);
  };

  return {
    /** Operations whose outcome is unknown, and the age of the oldest (metrics). */
    unknownBacklog: (): Promise<Backlog> =>
      readBacklog(
        q,
        `select count(*)::int as n, extract(epoch from now() - min(updated_at))::float as oldest
           from merchant_operations where status = 'unknown'`,
      ),

    /**
     * A kind that sends a client_orderid of its own (CLAIMING_OPERATION_KINDS) claims it in the
     * same transaction, or throws ClientOrderIdTakenError and writes nothing.
     */
    create(input: NewMerchantOperation): Promise<MerchantOperation> {
      if (input.amountMinor !== undefined && input.amountMinor !== null) {
        assertMinor(input.amountMinor, 'amountMinor');
      }
      const id = input.id ?? randomUUID();
      const kind = input.kind;
      if (!claimsClientOrderId(kind)) return insert(q, id, input);
      return inTransaction(q, async (tx) => {
        await createClientOrderIdRepository(tx).claim(input.clientId, { kind, id });
        return insert(tx, id, input);
      });
    },

    get,
    getByClientId: (kind: MerchantOperationKind, clientId: string) =>
      one('select * from merchant_operations where kind = $1 and client_id = $2', [kind, clientId]),
    /**
     * Every pending operation on one gateway transaction, oldest first: a capture and a later
     * return share their order's orderid, a rebill or payout has its own.
     */
    async pendingOnGatewayOrder(gatewayOrderId: string): Promise<MerchantOperation[]> {
      const { rows } = await q.query(
        `select * from merchant_operations
         where gateway_orderid = $1 and status = any($2::text[]) order by seq`,
        [gatewayOrderId, [...PENDING_OPERATION_STATUSES]],
      );
      return rows.map(mapOperation);
    },

    /**
     * The charges of this card reference reserved within the last `withinSeconds` and not yet
     * answered (`new`): their request may be on its way to the gateway. Older ones were reserved by
     * a request that never finished (its instance died), and can no longer be sent.
     */
    async chargesBeingSent(cardRefId: string, withinSeconds: number): Promise<MerchantOperation[]> {
      const { rows } = await q.query(
        `select * from merchant_operations
          where card_ref_id = $1 and status = 'new'
            and created_at > now() - make_interval(secs => $2)
          order by seq`,
        [cardRefId, withinSeconds],
      );
      return rows.map(mapOperation);
    },

    /** The pending capture, void or return of a checkout order, if one: at most one at a time. */
    pendingMoneyOpOf: (orderRowId: string) =>
      one(
        `select * from merchant_operations
         where data->>'orderRowId' = $1 and kind = any($2::text[]) and status = any($3::text[])
         order by seq limit 1`,
        [orderRowId, [...MONEY_OPERATION_KINDS], [...PENDING_OPERATION_STATUSES]],
      ),

    /**
     * Whether an earlier operation of the same order, kind and amount has reached a final status:
     * a status answer asked by the order cannot then tell which of the two it describes.
     */
    async hasFinalTwin(operation: MerchantOperation): Promise<boolean> {
      const { rows } = await q.query(
        `select 1 from merchant_operations
          where data->>'orderRowId' = $1 and kind = $2 and amount_minor = $3
            and status <> all($4::text[])
            and seq < (select seq from merchant_operations where id = $5)
          limit 1`,
        [
          String(operation.data.orderRowId ?? ''),
          operation.kind,
          operation.amountMinor,
          [...PENDING_OPERATION_STATUSES],
          operation.id,
        ],
      );
      return rows.length > 0;
    },

    /**
     * Marks a pending operation as looked at now, unless it changed since it was read: one that waits
     * for a person (pollMoneyOp's twins) then goes to the back of needingReconciliation's queue
     * instead of holding its front, where fifty of them would starve every newer one.
     */
    async touch(operation: MerchantOperation): Promise<void> {
      await q.query(
        `update merchant_operations set updated_at = now()
          where id = $1 and version = $2 and status = any($3::text[])`,
        [operation.id, operation.version, [...PENDING_OPERATION_STATUSES]],
      );
    },

    /** Pending operations of these kinds untouched for `olderThanSeconds`, oldest first. */
    async needingReconciliation(options: {
      olderThanSeconds: number;
      kinds: readonly MerchantOperationKind[];
      limit?: number;
    }): Promise<MerchantOperation[]> {
      const { rows } = await q.query(
        `select * from merchant_operations
         where status = any($1::text[]) and kind = any($2::text[])
           and updated_at < now() - make_interval(secs => $3)
         order by updated_at limit $4`,
        [
          [...PENDING_OPERATION_STATUSES],
          [...options.kinds],
          options.olderThanSeconds,
          options.limit ?? 50,
        ],
      );
      return rows.map(mapOperation);
    },

    /**
     * Moves the status to `to` only from one of `from` (and, given `version`, only from that
     * version: nothing else changed it since it was read), with `patch`; `won` says if it happened.
     */
    async transition(
      id: string,
      change: { from: readonly string[]; to: string; version?: number; patch?: OperationPatch },
    ): Promise<{ won: boolean; operation: MerchantOperation | null }> {
      const { sql, params } = assignments({ ...change.patch }, PATCH_COLUMNS, 4);
      const won = await one(
        `update merchant_operations set status = $2, ${sql.map((s) => `${s}, `).join('')}
           updated_at = now(), version = version + 1
         where id = $1 and status = any($3::text[]) and ($4::int is null or version = $4)
         returning *`,
        [id, change.to, [...change.from], change.version ?? null, ...params],
      );
      return won ? { won: true, operation: won } : { won: false, operation: await get(id) };
    },
  };
}

export type OperationRepository = ReturnType<typeof createOperationRepository>;
