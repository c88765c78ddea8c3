/**
 * The append-only history of every gateway request and response: what was asked (sanitised here,
 * never by the caller), what came back, how long it took. A database trigger refuses updates and
 * deletes, so the trail cannot be rewritten.
 */
import type { JsonObject } from './orders.js';
import { maskCardNumbers, sanitizeFields, sanitizeRecord } from './sanitize.js';
import {
  type Executor,
  json,
  storableText,
  toDate,
  toInt,
  toIntOrNull,
  toStringOrNull,
} from './sql.js';

export interface GatewayExchange {
  /** The order it belongs to, when it is a card payment's. */
  orderId?: string | null;
  /** The merchant operation it belongs to (card ref, payout, ...), when one. */
  operationId?: string | null;
  /** The gateway operation, e.g. `SALE`, `STATUS`, `TDS_UPLOAD_CRES_RESULT`. */
  operation: string;
  /** The form fields sent. Card data and secrets are removed before storing. */
  request: Record<string, unknown> | URLSearchParams;
  /** The parsed response, when one came. Sanitised the same way. */
  response?: JsonObject | null;
  httpStatus?: number | null;
  durationMs?: number | null;
  requestId?: string | null;
  /** A transport failure (timeout, connection reset) instead of a response. */
  error?: string | null;
}

export interface HistoryEntry {
  id: number;
  orderId: string | null;
  operationId: string | null;
  operation: string;
  request: JsonObject;
  response: JsonObject | null;
  httpStatus: number | null;
  durationMs: number | null;
  requestId: string | null;
  error: string | null;
  createdAt: Date;
}

function mapEntry(row: Record<string, unknown>): HistoryEntry {
  return {
    id: toInt(row.id, 'gateway_history.id'),
    orderId: toStringOrNull(row.order_id),
    operationId: toStringOrNull(row.operation_id),
    operation: String(row.operation),
    request: row.request as JsonObject,
    response: (row.response as JsonObject | null) ?? null,
    httpStatus: toIntOrNull(row.http_status, 'gateway_history.http_status'),
    durationMs: toIntOrNull(row.duration_ms, 'gateway_history.duration_ms'),
    requestId: toStringOrNull(row.request_id),
    error: toStringOrNull(row.error),
    createdAt: toDate(row.created_at),
  };
}

const INSERT = `insert into gateway_history (order_id, operation_id, operation, request, response,
    http_status, duration_ms, request_id, error)
  values ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8, $9)`;

/** The insert's parameters: the exchange sanitised. */
function insertParams(exchange: GatewayExchange): unknown[] {
  const response =
    exchange.response === undefined || exchange.response === null
      ? null
      : sanitizeFields(exchange.response);
  return [
    exchange.orderId ?? null,
    exchange.operationId ?? null,
    exchange.operation,
    json(sanitizeRecord(exchange.request)),
    json(response),
    exchange.httpStatus ?? null,
    exchange.durationMs === undefined || exchange.durationMs === null
      ? null
      : Math.round(exchange.durationMs),
    exchange.requestId ?? null,
    // An error text may quote the gateway, which may echo a card number.
    exchange.error ? storableText(maskCardNumbers(exchange.error)) : null,
  ];
}

export function createHistoryRepository(q: Executor) {
  return {
    /**
     * Stores the exchange, sanitised, without reading the row back: the backend writes two or
     * more per payment and never reads them then, and the stored request and response coming
     * back as JSON cost about as much as the insert itself (test/bench/RESULTS.md).
     */
    async record(exchange: GatewayExchange): Promise<void> {
      await q.query(INSERT, insertParams(exchange));
    },

    /** An order's exchanges, oldest first. */
    async forOrder(orderId: string): Promise<HistoryEntry[]> {
      const { rows } = await q.query(
        'select * from gateway_history where order_id = $1 order by id',
        [orderId],
      );
      return rows.map(mapEntry);
    },

    /** A merchant operation's exchanges, oldest first: the audit read beside `forOrder`. */
    async forOperation(operationId: string): Promise<HistoryEntry[]> {
      const { rows } = await q.query(
        'select * from gateway_history where operation_id = $1 order by id',
        [operationId],
      );
      return rows.map(mapEntry);
    },
  };
}

export type HistoryRepository = ReturnType<typeof createHistoryRepository>;
