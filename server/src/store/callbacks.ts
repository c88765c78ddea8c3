/**
 * Callbacks received from the gateway on `server_callback_url`. The gateway retries until it gets
 * a 200 and may send duplicates; the unique key over what the control signs (status, orderid,
 * client_orderid) makes `recordOnce` say whether this one is new, so the handler acts once and
 * still answers 200 to every repeat. Unsigned fields (`type`, `amount`) are kept, never keyed on:
 * varying them does not make a repeat new.
 */
import { StoreError } from './errors.js';
import type { JsonObject } from './orders.js';
import { sanitizeRecord } from './sanitize.js';
import {
  type Executor,
  json,
  storableText,
  toDate,
  toDateOrNull,
  toInt,
  toStringOrNull,
} from './sql.js';

export interface GatewayCallback {
  id: number;
  gatewayOrderId: string;
  clientOrderId: string | null;
  status: string;
  type: string;
  /** The query as received, without `control` or card data. */
  query: JsonObject;
  receivedAt: Date;
  processedAt: Date | null;
}

export interface ReceivedCallback {
  gatewayOrderId: string;
  clientOrderId: string;
  status: string;
  /** The callback's `type` (sale, capture, return, ...); empty when the gateway sent none. */
  type?: string | null;
  /** The raw query; sanitised here. */
  query: Record<string, unknown> | URLSearchParams;
}

function mapCallback(row: Record<string, unknown>): GatewayCallback {
  return {
    id: toInt(row.id, 'gateway_callbacks.id'),
    gatewayOrderId: String(row.gateway_orderid),
    clientOrderId: toStringOrNull(row.client_orderid),
    status: String(row.status),
    type: String(row.type),
    query: row.query as JsonObject,
    receivedAt: toDate(row.received_at),
    processedAt: toDateOrNull(row.processed_at),
  };
}

export function createCallbackRepository(q: Executor) {
  return {
    /**
     * Stores the callback unless the same signed (status, orderid, client_orderid) came before. `isNew` is true for
     * exactly one of any number of concurrent duplicates; `callback` is the stored row either way.
     */
    async recordOnce(
      input: ReceivedCallback,
    ): Promise<{ isNew: boolean; callback: GatewayCallback }> {
      const signedKey = JSON.stringify([input.status, input.gatewayOrderId, input.clientOrderId]);
      const inserted = await q.query(
        `insert into gateway_callbacks
           (gateway_orderid, client_orderid, status, type, query, signed_key)
         values ($1, $2, $3, $4, $5::jsonb, $6)
         on conflict (signed_key) do nothing
         returning *`,
        [
          input.gatewayOrderId,
          input.clientOrderId,
          input.status,
          // Unsigned: anyone replaying a signed callback may set it.
          storableText(input.type ?? ''),
          json(sanitizeRecord(input.query)),
          signedKey,
        ],
      );
      if (inserted.rows[0]) return { isNew: true, callback: mapCallback(inserted.rows[0]) };
      const existing = await q.query('select * from gateway_callbacks where signed_key = $1', [
        signedKey,
      ]);
      if (!existing.rows[0]) {
        throw new StoreError('store-callback', 'Duplicate callback vanished');
      }
      return { isNew: false, callback: mapCallback(existing.rows[0]) };
    },

    /** Notes that the callback was acted on (once); answers whether this call did it. */
    async markProcessed(id: number): Promise<boolean> {
      const { rowCount } = await q.query(
        'update gateway_callbacks set processed_at = now() where id = $1 and processed_at is null',
        [id],
      );
      return rowCount > 0;
    },

    async forGatewayOrder(gatewayOrderId: string): Promise<GatewayCallback[]> {
      const { rows } = await q.query(
        'select * from gateway_callbacks where gateway_orderid = $1 order by id',
        [gatewayOrderId],
      );
      return rows.map(mapCallback);
    },
  };
}

export type CallbackRepository = ReturnType<typeof createCallbackRepository>;
