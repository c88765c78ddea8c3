/**
 * Queries over the sandbox tables. Every state change runs in one database transaction that
 * reads the row `for update`, so two requests on one order (or two sandbox instances on one
 * PostgreSQL) cannot both pass a rule check. Work that must follow a commit (arming a timer)
 * is registered with `after`.
 */
import type { Database, Queryable } from '../store/engine/types.js';
import type { Transaction } from './model.js';

export interface TxContext {
  q: Queryable;
  /** Runs after the commit (never on rollback). */
  after(fn: () => void): void;
}

export interface CardRef {
  id: string;
  endpointId: string;
  sourceOrderId: string;
  scenario: string;
  bin: string;
  lastFour: string;
  brand: string;
  holder: string;
  expMonth: string;
  expYear: string;
  createdAt: number;
}

export interface RecurringPayment {
  id: string;
  endpointId: string;
  cardRefId: string;
  amountMinor: number;
  currency: string;
  period: 'day' | 'week' | 'month';
  interval: number;
  email: string;
  firstName?: string;
  lastName?: string;
  callbackUrl?: string;
  maxRepeats?: number;
  /** Number of charges made so far. */
  charges: number;
  nextChargeAt: number;
  startedAt: number;
  active: boolean;
}

type LookupColumn = 'three_ds_server_trans_id' | 'acs_trans_id' | 'form_token';

/** Expired nonces are deleted at most this often, not on every signed request. */
const NONCE_PRUNE_INTERVAL_MS = 60_000;

export class SandboxStore {
  readonly db: Database;
  /** When expired nonces were last deleted (sandbox clock); -Infinity: never. */
  private noncesPrunedAt = Number.NEGATIVE_INFINITY;

  constructor(db: Database) {
    this.db = db;
  }

  async withTx<T>(fn: (ctx: TxContext) => Promise<T>): Promise<T> {
    const after: (() => void)[] = [];
    const result = await this.db.transaction((q) => fn({ q, after: (f) => after.push(f) }));
    for (const f of after) f();
    return result;
  }

  async nextOrderId(q: Queryable): Promise<string> {
    const { rows } = await q.query<{ id: string }>(
      "select nextval('sandbox_order_seq')::text as id",
    );
    return rows[0]!.id;
  }

  async insertTx(q: Queryable, tx: Transaction): Promise<void> {
    await q.query(
      `insert into sandbox_transactions
         (orderid, endpoint_id, client_orderid, phase, three_ds_server_trans_id, acs_trans_id,
          form_token, data)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [tx.orderid, tx.endpointId, tx.clientOrderId, tx.phase, ...lookups(tx), JSON.stringify(tx)],
    );
  }

  async saveTx(q: Queryable, tx: Transaction): Promise<void> {
    await q.query(
      `update sandbox_transactions set phase = $2, three_ds_server_trans_id = $3,
         acs_trans_id = $4, form_token = $5, data = $6 where orderid = $1`,
      [tx.orderid, tx.phase, ...lookups(tx), JSON.stringify(tx)],
    );
  }

  async getTx(q: Queryable, orderid: string, forUpdate = false): Promise<Transaction | undefined> {
    return one(
      q,
      `select data from sandbox_transactions where orderid = $1${forUpdate ? ' for update' : ''}`,
      [orderid],
    );
  }

  async getTxByClientOrderId(
    q: Queryable,
    endpointId: string,
    clientOrderId: string,
    forUpdate = false,
  ): Promise<Transaction | undefined> {
    return one(
      q,
      `select data from sandbox_transactions where endpoint_id = $1 and client_orderid = $2${
        forUpdate ? ' for update' : ''
      }`,
      [endpointId, clientOrderId],
    );
  }

  async getTxBy(
    q: Queryable,
    column: LookupColumn,
    value: string,
    forUpdate = false,
  ): Promise<Transaction | undefined> {
    return one(
      q,
      `select data from sandbox_transactions where ${column} = $1${forUpdate ? ' for update' : ''}`,
      [value],
    );
  }

  async insertCardRef(q: Queryable, ref: CardRef): Promise<void> {
    await q.query(
      'insert into sandbox_card_refs (id, endpoint_id, source_orderid, data) values ($1, $2, $3, $4)',
      [ref.id, ref.endpointId, ref.sourceOrderId, JSON.stringify(ref)],
    );
  }

  async getCardRef(q: Queryable, id: string): Promise<CardRef | undefined> {
    const { rows } = await q.query<{ data: CardRef }>(
      'select data from sandbox_card_refs where id = $1',
      [id],
    );
    return rows[0]?.data;
  }

  async getCardRefBySource(q: Queryable, orderid: string): Promise<CardRef | undefined> {
    const { rows } = await q.query<{ data: CardRef }>(
      'select data from sandbox_card_refs where source_orderid = $1',
      [orderid],
    );
    return rows[0]?.data;
  }

  async saveRecurring(q: Queryable, rp: RecurringPayment, insert: boolean): Promise<void> {
    await q.query(
      insert
        ? 'insert into sandbox_recurring_payments (id, endpoint_id, data) values ($1, $2, $3)'
        : 'update sandbox_recurring_payments set endpoint_id = $2, data = $3 where id = $1',
      [rp.id, rp.endpointId, JSON.stringify(rp)],
    );
  }

  async getRecurring(
    q: Queryable,
    id: string,
    forUpdate = false,
  ): Promise<RecurringPayment | undefined> {
    const { rows } = await q.query<{ data: RecurringPayment }>(
      `select data from sandbox_recurring_payments where id = $1${forUpdate ? ' for update' : ''}`,
      [id],
    );
    return rows[0]?.data;
  }

  /** Records a nonce; false when the login already used it (a replay). */
  async useNonce(login: string, nonce: string, now: number, windowMs: number): Promise<boolean> {
    // A nonce kept a little past its window is harmless: its timestamp is stale by then, so a
    // replay is refused anyway. Pruning is only housekeeping.
    if (now - this.noncesPrunedAt >= NONCE_PRUNE_INTERVAL_MS || now < this.noncesPrunedAt) {
      this.noncesPrunedAt = now;
      await this.db.query('delete from sandbox_nonces where seen_at < $1', [now - windowMs]);
    }
    const { rowCount } = await this.db.query(
      `insert into sandbox_nonces (login, nonce, seen_at) values ($1, $2, $3)
       on conflict do nothing`,
      [login, nonce, now],
    );
    return rowCount > 0;
  }

  async reset(): Promise<void> {
    await this.db.query(
      `truncate sandbox_transactions, sandbox_card_refs, sandbox_recurring_payments, sandbox_jobs,
         sandbox_callback_attempts, sandbox_callbacks, sandbox_nonces`,
    );
  }
}

function lookups(tx: Transaction): (string | null)[] {
  return [tx.threeDs?.serverTransId ?? null, tx.threeDs?.acsTransId ?? null, tx.formToken ?? null];
}

async function one(q: Queryable, sql: string, params: unknown[]): Promise<Transaction | undefined> {
  const { rows } = await q.query<{ data: Transaction }>(sql, params);
  return rows[0]?.data;
}
