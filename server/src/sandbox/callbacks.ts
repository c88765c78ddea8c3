/**
 * Callbacks to `server_callback_url`: an HTTP GET with the outcome in the query, signed with
 * control = sha1(status + orderid + client_orderid + control key). Retried with doubling delays
 * until a 200 or `maxAttempts`; every attempt is recorded in `sandbox_callback_attempts`.
 */
import { computeControl, fromMinorUnits } from '../signing/index.js';
import type { Faults } from './faults.js';
import type { CallbackFetch } from './http/callback-get.js';
import type { JobLogger, JobPayload, JobRunner } from './jobs.js';
import type { MerchantRegistry } from './merchants.js';
import type { Transaction } from './model.js';
import type { Clock } from './scheduler.js';
import type { SandboxStore, TxContext } from './store.js';

export interface CallbackSettings {
  maxAttempts: number;
  baseDelayMs: number;
  timeoutMs: number;
}

export interface CallbackAttempt {
  attempt: number;
  at: number;
  httpStatus: number | null;
  error: string | null;
}

export interface CallbackRecord {
  id: string;
  orderid: string;
  url: string;
  query: Record<string, string>;
  attempts: number;
  delivered: boolean;
}

/** The control of the final redirect and of a callback: the transaction's current status. */
export function finalNotificationControl(tx: Transaction, controlKey: string): string {
  return computeControl(
    'final-notification',
    { status: tx.status, orderid: tx.orderid, client_orderid: tx.clientOrderId },
    controlKey,
  );
}

export class Callbacks {
  private readonly store: SandboxStore;
  private readonly jobs: JobRunner;
  private readonly clock: Clock;
  private readonly merchants: MerchantRegistry;
  private readonly faults: Faults;
  private readonly settings: CallbackSettings;
  private readonly fetchImpl: CallbackFetch;
  private readonly log: JobLogger;

  constructor(
    store: SandboxStore,
    jobs: JobRunner,
    clock: Clock,
    merchants: MerchantRegistry,
    faults: Faults,
    settings: CallbackSettings,
    fetchImpl: CallbackFetch,
    log: JobLogger,
  ) {
    this.store = store;
    this.jobs = jobs;
    this.clock = clock;
    this.merchants = merchants;
    this.faults = faults;
    this.settings = settings;
    this.fetchImpl = fetchImpl;
    this.log = log;
    jobs.on('callback', (payload) => this.attempt(payload));
  }

  /** The query fields of a callback for the transaction's current (final) state. */
  queryFor(tx: Transaction, amountMinor: number): Record<string, string> {
    const merchant = this.merchants.byEndpoint(tx.endpointId);
    const control = finalNotificationControl(tx, merchant?.controlKey ?? '');
    const query: Record<string, string> = {
      status: tx.status,
      orderid: tx.orderid,
      client_orderid: tx.clientOrderId,
      merchant_order: tx.clientOrderId,
      type: tx.transactionType,
      amount: fromMinorUnits(amountMinor, tx.currency),
      currency: tx.currency,
      control,
      'processor-tx-id': `PNTEST-${tx.orderid}`,
      descriptor: 'PAY-CHECKOUT SANDBOX',
    };
    if (tx.errorMessage) query.error_message = tx.errorMessage;
    if (tx.errorCode) query.error_code = tx.errorCode;
    if (tx.card) {
      query.bin = tx.card.bin;
      query['last-four-digits'] = tx.card.lastFour;
      query['card-type'] = tx.card.brand;
      query['card-holder-name'] = tx.card.holder;
    }
    return query;
  }

  /** Queues the callback of the transaction's new final status (no-op without a URL). */
  async enqueue(ctx: TxContext, tx: Transaction, amountMinor: number): Promise<void> {
    if (!tx.callbackUrl) return;
    const faults = this.faults.settingsFor(tx.endpointId);
    if (faults.lostCallbacks) return;
    const previous = faults.outOfOrderCallbacks
      ? await ctx.q.query<{ query: Record<string, string> }>(
          'select query from sandbox_callbacks where orderid = $1 order by id desc limit 1',
          [tx.orderid],
        )
      : undefined;
    const query = this.queryFor(tx, amountMinor);
    await this.insert(ctx, tx.orderid, tx.callbackUrl, query, 0);
    if (faults.duplicateCallbacks) await this.insert(ctx, tx.orderid, tx.callbackUrl, query, 1);
    const stale = previous?.rows[0]?.query;
    if (stale) await this.insert(ctx, tx.orderid, tx.callbackUrl, stale, 2);
  }

  async list(orderid: string): Promise<(CallbackRecord & { log: CallbackAttempt[] })[]> {
    const { rows } = await this.store.db.query<{
      id: string;
      url: string;
      query: Record<string, string>;
      attempts: number;
      delivered: boolean;
    }>(
      `select id::text as id, url, query, attempts, delivered from sandbox_callbacks
       where orderid = $1 order by id`,
      [orderid],
    );
    const out = [];
    for (const row of rows) {
      const log = await this.store.db.query<{
        attempt: number;
        at: string | number;
        http_status: number | null;
        error: string | null;
      }>(
        `select attempt, at, http_status, error from sandbox_callback_attempts
         where callback_id = $1 order by attempt`,
        [row.id],
      );
      out.push({
        ...row,
        orderid,
        log: log.rows.map((a) => ({
          attempt: a.attempt,
          at: Number(a.at),
          httpStatus: a.http_status,
          error: a.error,
        })),
      });
    }
    return out;
  }

  private async insert(
    ctx: TxContext,
    orderid: string,
    url: string,
    query: Record<string, string>,
    delayMs: number,
  ) {
    const { rows } = await ctx.q.query<{ id: string }>(
      `insert into sandbox_callbacks (orderid, url, query, created_at)
       values ($1, $2, $3, $4) returning id::text as id`,
      [orderid, url, JSON.stringify(query), this.clock.now()],
    );
    await this.jobs.enqueue(ctx, 'callback', { id: rows[0]!.id }, delayMs);
  }

  private async attempt(payload: JobPayload): Promise<void> {
    const id = String(payload.id);
    const { rows } = await this.store.db.query<{
      url: string;
      query: Record<string, string>;
      attempts: number;
      delivered: boolean;
    }>('select url, query, attempts, delivered from sandbox_callbacks where id = $1', [id]);
    const cb = rows[0];
    if (!cb || cb.delivered) return;
    const attempt = cb.attempts + 1;
    const url = new URL(cb.url);
    for (const [name, value] of Object.entries(cb.query)) url.searchParams.append(name, value);
    let httpStatus: number | null = null;
    let error: string | null = null;
    try {
      const response = await this.fetchImpl(url, {
        method: 'GET',
        redirect: 'manual',
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      httpStatus = response.status;
      await response.body?.cancel();
    } catch (cause) {
      error = (cause as Error).message || 'request failed';
    }
    const delivered = httpStatus === 200;
    await this.store.withTx(async (ctx) => {
      await ctx.q.query(
        `insert into sandbox_callback_attempts (callback_id, attempt, at, http_status, error)
         values ($1, $2, $3, $4, $5)`,
        [id, attempt, this.clock.now(), httpStatus, error],
      );
      await ctx.q.query(
        'update sandbox_callbacks set attempts = $2, delivered = $3 where id = $1',
        [id, attempt, delivered],
      );
      if (!delivered && attempt < this.settings.maxAttempts) {
        const delay = this.settings.baseDelayMs * 2 ** (attempt - 1);
        await this.jobs.enqueue(ctx, 'callback', { id }, delay);
      } else if (!delivered) {
        this.log.error({ callback: id, url: cb.url }, 'callback abandoned after the last attempt');
      }
    });
  }
}
