/**
 * Shared pieces of the proof suite: the in-process stack of test/server/checkout (sandbox and
 * companion backend on loopback HTTP, in-memory PGlite), plus look-ups into both databases that
 * the proofs assert on (the sandbox's transactions, the backend's callbacks and history).
 */
import assert from 'node:assert/strict';
import { type SandboxOptions, TEST_CARDS } from '../../../server/src/sandbox/index.js';
import {
  type CheckoutStore,
  createCheckoutStore,
  type Database,
  migrateCheckoutStore,
  type Order,
} from '../../../server/src/store/index.js';
import {
  type Backend,
  type BackendOptions,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../support/loopback-stack.js';
import { memorySchema } from '../../support/memory-schemas.js';
import { scaled } from '../../support/time-scale.js';

export { payBody } from '../../support/fixtures.js';
export {
  type Backend,
  type BackendOptions,
  closeServer,
  FAST_TIMING,
  JWT_SECRET,
  listen,
  MERCHANT_API_KEY,
  MERCHANT_ORIGIN,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../support/loopback-stack.js';
export { scaled, TIME_SCALE } from '../../support/time-scale.js';
export {
  BROWSER,
  type Card,
  CUSTOMER,
  createSession,
  merchant,
  parseForm,
  postForm,
  returnMessage,
  runChallenge,
  runMethod,
  Shopper,
  uniqueOrderId,
} from '../../support/widget-api-client.js';

export interface Pair {
  db: Database;
  store: CheckoutStore;
  sb: Sandbox;
  be: Backend;
  close(): Promise<void>;
}

/**
 * Faults injected into the backend's gateway calls: `inject(path fragment, X-Sandbox-Fault
 * header, times)`; `fetch` goes into the backend as its gateway fetch.
 */
export function faultPlan() {
  const plan = new Map<string, { header: string; times: number }>();
  const rewrites = new Map<string, { from: string; to: string; times: number }>();
  return {
    inject(pathPart: string, header: string, times = 1) {
      plan.set(pathPart, { header, times });
    },
    /**
     * The next `times` requests to `pathPart` go out with `from` in their form body written as
     * `to`: a request the backend would never send, for a real refusal by the gateway.
     */
    rewrite(pathPart: string, from: string, to: string, times = 1) {
      rewrites.set(pathPart, { from, to, times });
    },
    /** How many injections of `pathPart` are still unused. */
    remaining: (pathPart: string) => plan.get(pathPart)?.times,
    clear: () => {
      plan.clear();
      rewrites.clear();
    },
    fetch: ((url, sent) => {
      let init = sent;
      for (const [part, rewrite] of rewrites) {
        const text = new TextDecoder().decode(init.body);
        if (url.includes(part) && rewrite.times > 0 && text.includes(rewrite.from)) {
          rewrite.times -= 1;
          init = {
            ...init,
            body: new TextEncoder().encode(text.replace(rewrite.from, rewrite.to)),
          };
        }
      }
      for (const [part, fault] of plan) {
        if (url.includes(part) && fault.times > 0) {
          fault.times -= 1;
          return fetch(url, {
            ...init,
            headers: { ...init.headers, 'x-sandbox-fault': fault.header },
          });
        }
      }
      return fetch(url, init);
    }) satisfies NonNullable<BackendOptions['gatewayFetch']>,
  };
}

/**
 * The sandbox and the backend in one schema of the test process's in-memory PGlite
 * (test/support/memory-schemas.ts; their tables never overlap), so that a proof reads both
 * sides' rows through `db`.
 */
export async function startPair(
  sandboxOptions: SandboxOptions = {},
  backendOptions: Omit<BackendOptions, 'store'> = {},
): Promise<Pair> {
  const db = await memorySchema('pair');
  await migrateCheckoutStore(db);
  const store = createCheckoutStore(db);
  const sb = await startSandbox({ database: db, ...sandboxOptions });
  const be = await startBackend(sb, { ...backendOptions, store });
  return {
    db,
    store,
    sb,
    be,
    async close() {
      await be.close();
      await sb.sandbox.idle();
      await sb.close();
      await db.close();
    },
  };
}

export function card(scenario: string): { pan: string; cvv: string; otp: string | null } {
  const found = TEST_CARDS.find((c) => c.scenario === scenario);
  assert.ok(found, scenario);
  return { pan: found.pan, cvv: found.cvv, otp: found.otp ?? null };
}

export interface SandboxTx {
  orderid: string;
  clientOrderId: string;
  kind: string;
  status: string;
  /** Where a two-step operation stands (a payout: `registered` until it is paid). */
  phase?: string;
  amountMinor: number;
  currency: string;
  operations: { type: string; amountMinor: number; status: string }[];
}

/** Every transaction the sandbox holds for a client_orderid (any endpoint). */
export async function sandboxTransactions(
  sb: Sandbox,
  clientOrderId: string,
): Promise<SandboxTx[]> {
  const { rows } = await sb.sandbox.store.db.query<{ data: SandboxTx }>(
    'select data from sandbox_transactions where client_orderid = $1 order by orderid',
    [clientOrderId],
  );
  return rows.map((r) => r.data);
}

/** The charge the sandbox made for an order: exactly one sale/preauth, or the test fails. */
export async function exactlyOneCharge(sb: Sandbox, clientOrderId: string): Promise<SandboxTx> {
  const txs = await sandboxTransactions(sb, clientOrderId);
  const charges = txs.filter((t) => t.kind === 'sale' || t.kind === 'preauth');
  assert.equal(charges.length, 1, `charges for ${clientOrderId}: ${JSON.stringify(txs)}`);
  return charges[0] as SandboxTx;
}

/**
 * One checkout order's attempts as the store and the sandbox saw them, by the merchant's orderId:
 * its attempt rows, every event queued for them (`type attempt`, sorted), and the sandbox's
 * charges of each attempt with their returns and voids (`[id, kind, status, ops]`). The store and
 * sandbox are read through getters: a proof opens them in its `before`.
 */
export function attemptLedger(store: () => CheckoutStore, sb: () => Sandbox) {
  const attemptRows = async (orderId: string): Promise<Order[]> => {
    const first = await store().orders.getByClientOrderId(orderId);
    assert.ok(first?.sessionId);
    return store().orders.attemptsOf(first.sessionId);
  };
  const events = async (orderId: string): Promise<string[]> => {
    const out: string[] = [];
    for (const row of await attemptRows(orderId)) {
      for (const e of await store().webhooks.forOrder(row.id))
        out.push(`${e.event} ${row.attempt}`);
    }
    return out.sort();
  };
  const atGateway = async (orderId: string) => {
    await sb().sandbox.idle();
    const out: [string, string, string, string[]][] = [];
    for (const row of await attemptRows(orderId)) {
      for (const tx of await sandboxTransactions(sb(), row.clientOrderId)) {
        const ops = tx.operations
          .filter((o) => o.type === 'return' || o.type === 'void')
          .map((o) => `${o.type} ${o.amountMinor} ${o.status}`);
        out.push([row.clientOrderId, tx.kind, tx.status, ops]);
      }
    }
    return out;
  };
  return { attemptRows, events, atGateway };
}

/** How many `operation` calls the backend's gateway history shows for one order. */
export async function historyCount(be: Backend, orderId: string, operation: string) {
  const entries = await be.store.history.forOrder(orderId);
  return entries.filter((e) => e.operation === operation).length;
}

export async function countRows(db: Database, tables: readonly string[]) {
  const out: Record<string, number> = {};
  for (const table of tables) {
    const { rows } = await db.query<{ n: string | number }>(
      `select count(*)::int as n from ${table}`,
    );
    out[table] = Number(rows[0]?.n ?? 0);
  }
  return out;
}

/** A fingerprint of every row of `tables` (content, not only counts) to prove nothing changed. */
export async function snapshotTables(db: Database, tables: readonly string[]) {
  const out: Record<string, string> = {};
  for (const table of tables) {
    const { rows } = await db.query(`select * from ${table} order by 1`);
    out[table] = JSON.stringify(rows);
  }
  return out;
}

export const CHECKOUT_TABLES = [
  'orders',
  'checkout_sessions',
  'gateway_callbacks',
  'gateway_history',
  'idempotency_keys',
  'merchant_webhooks',
  'merchant_operations',
  'card_refs',
  'checkout_session_cards',
] as const;

export const SANDBOX_TABLES = [
  'sandbox_transactions',
  'sandbox_card_refs',
  'sandbox_recurring_payments',
  'sandbox_callbacks',
] as const;

/** Mulberry32: a small seeded PRNG so that every fuzz failure reproduces from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Probes until `probe` answers something. `explain` adds to the failure message what it should
 * say about the state that never came.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  options: { timeoutMs?: number; everyMs?: number; explain?: () => string } = {},
): Promise<T> {
  // A quiet machine's limit, times the run's time scale (a busy machine is slower, not wrong).
  const end = Date.now() + scaled(options.timeoutMs ?? 10_000);
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) {
      const why = options.explain ? `: ${options.explain()}` : '';
      assert.fail(`timed out waiting for ${what}${why}`);
    }
    await new Promise((r) => setTimeout(r, options.everyMs ?? 50));
  }
}
