/**
 * Idempotency keys of the merchant API. `begin` claims (scope, key) for one request body; the
 * handler runs once and `complete` stores its answer, which every repeat then gets verbatim. A
 * repeat while the first is still running waits (up to `waitMs`) or is told `in-progress` (409).
 * The same key with a different body is a `mismatch` (422). A claim whose holder died expires
 * after `lockSeconds` so that the key is not blocked for ever.
 */
import { createHash } from 'node:crypto';
import { type Executor, json } from './sql.js';

export type IdempotencyBegin =
  /** This caller owns the key: run the handler, then `complete` (or `abandon` on failure). */
  | { outcome: 'started' }
  /** Done before with the same body: answer this again. */
  | { outcome: 'replay'; status: number; body: unknown }
  /** Another request with this key is running. */
  | { outcome: 'in-progress' }
  /** The key was used with a different body. */
  | { outcome: 'mismatch' };

export interface IdempotencyRequest {
  /** What the key is scoped to: method, matched route and its parameters, e.g.
   * `POST /orders/:orderId/capture {"orderId":"ord-1"}`. */
  scope: string;
  key: string;
  /** `hashRequestBody(body)`. */
  requestHash: string;
  /** How long a claim holds before another request may take it over. Default 60. */
  lockSeconds?: number;
  /** How long a repeat waits for a running first request before `in-progress`. Default 0. */
  waitMs?: number;
}

/** A stable hash of a JSON body: object keys sorted, so key order does not matter. */
export function hashRequestBody(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const POLL_MS = 50;

export function createIdempotencyRepository(q: Executor) {
  const tryBegin = async (r: IdempotencyRequest): Promise<IdempotencyBegin> => {
    const lock = r.lockSeconds ?? 60;
    const inserted = await q.query(
      `insert into idempotency_keys (scope, key, request_hash, state, locked_until)
       values ($1, $2, $3, 'in-progress', now() + make_interval(secs => $4))
       on conflict (scope, key) do nothing returning key`,
      [r.scope, r.key, r.requestHash, lock],
    );
    if (inserted.rowCount > 0) return { outcome: 'started' };
    const { rows } = await q.query<{
      request_hash: string;
      state: string;
      response_status: number | null;
      response_body: unknown;
      expired: boolean;
    }>(
      `select request_hash, state, response_status, response_body, locked_until < now() as expired
       from idempotency_keys where scope = $1 and key = $2`,
      [r.scope, r.key],
    );
    const row = rows[0];
    // Abandoned between our insert and select: try again from the start.
    if (!row) return tryBegin(r);
    if (row.request_hash !== r.requestHash) return { outcome: 'mismatch' };
    if (row.state === 'completed') {
      return { outcome: 'replay', status: Number(row.response_status), body: row.response_body };
    }
    if (row.expired) {
      // Take over a dead holder's claim; compare-and-set so only one taker wins.
      const taken = await q.query(
        `update idempotency_keys set locked_until = now() + make_interval(secs => $3)
         where scope = $1 and key = $2 and state = 'in-progress' and locked_until < now()
         returning key`,
        [r.scope, r.key, lock],
      );
      if (taken.rowCount > 0) return { outcome: 'started' };
    }
    return { outcome: 'in-progress' };
  };

  return {
    async begin(request: IdempotencyRequest): Promise<IdempotencyBegin> {
      const deadline = Date.now() + (request.waitMs ?? 0);
      for (;;) {
        const result = await tryBegin(request);
        if (result.outcome !== 'in-progress' || Date.now() >= deadline) return result;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },

    /** Stores the answer of a started request; false if the claim was not (or no longer) ours. */
    async complete(
      scope: string,
      key: string,
      response: { status: number; body: unknown },
    ): Promise<boolean> {
      const { rowCount } = await q.query(
        `update idempotency_keys
         set state = 'completed', response_status = $3, response_body = $4::jsonb,
             completed_at = now(), locked_until = null
         where scope = $1 and key = $2 and state = 'in-progress'`,
        [scope, key, response.status, json(response.body ?? null)],
      );
      return rowCount > 0;
    },

    /** Releases a started claim whose handler failed before a storable answer, so a retry may run. */
    async abandon(scope: string, key: string): Promise<void> {
      await q.query(
        `delete from idempotency_keys where scope = $1 and key = $2 and state = 'in-progress'`,
        [scope, key],
      );
    },

    /** Forgets completed keys older than `olderThanSeconds` (keys are kept e.g. 24 h). */
    async purge(olderThanSeconds: number): Promise<number> {
      const { rowCount } = await q.query(
        `delete from idempotency_keys
         where state = 'completed' and completed_at < now() - make_interval(secs => $1)`,
        [olderThanSeconds],
      );
      return rowCount;
    },
  };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
