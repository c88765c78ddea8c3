/**
 * The stack of a proof file that attacks by hand and then asserts that nothing changed: startPair
 * before the file's tests, closed after them, and the views such a proof reads (every stored row
 * of both sides, a paid order, the sandbox's refunds, the merchant API).
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { SandboxOptions } from '../../../server/src/sandbox/index.js';
import {
  type BackendOptions,
  CHECKOUT_TABLES,
  card,
  createSession,
  merchant,
  type Pair,
  SANDBOX_TABLES,
  Shopper,
  sandboxTransactions,
  snapshotTables,
  startPair,
} from './proof.js';

export function usePair(
  sandboxOptions: SandboxOptions = {},
  backendOptions: Omit<BackendOptions, 'store'> = {},
) {
  let started: Pair | undefined;
  before(async () => {
    started = await startPair(sandboxOptions, backendOptions);
  });
  after(async () => {
    await started?.close();
  });
  const the = (): Pair => {
    assert.ok(started, 'the stack is running');
    return started;
  };
  /** The running pair (the stack starts in `before`, after this is handed out). */
  const pair = new Proxy({} as Pair, { get: (_, key) => Reflect.get(the(), key) });

  return {
    pair,
    api: (method: 'GET' | 'POST', path: string, body?: unknown, headers = {}) =>
      merchant(pair.be.url, method, path, body, headers),

    /** A session of `intent` paid with the approved card; its orderId. */
    async paidOrder(intent: 'sale' | 'preauth', amount: string, currency = 'EUR') {
      const session = await createSession(pair.be.url, { intent, amount, currency });
      const final = await new Shopper(pair.be.url, session.token).complete(card('approved'));
      assert.equal(final.order.status, 'approved');
      return session.orderId;
    },

    /** Every stored row of both sides, once the sandbox has no callback left to send. */
    async everything() {
      await pair.sb.sandbox.idle();
      return {
        checkout: await snapshotTables(pair.db, CHECKOUT_TABLES),
        sandbox: await snapshotTables(pair.db, SANDBOX_TABLES),
      };
    },

    /** The sandbox's refunds of one order: its return operations, whatever their status. */
    async sandboxReturns(orderId: string) {
      const txs = await sandboxTransactions(pair.sb, orderId);
      return txs.flatMap((t) => [
        ...t.operations.filter((o) => o.type === 'return'),
        ...(t.kind === 'return'
          ? [{ type: t.kind, amountMinor: t.amountMinor, status: t.status }]
          : []),
      ]);
    },
  };
}
