/**
 * The table of state moves is what the repositories allow: a transition outside it is refused,
 * typed and naming the move, before anything is written; every move the code makes is in it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type CheckoutStore,
  isAllowedMove,
  ORDER_MOVES,
  PAYMENT_LINK_MOVES,
  SESSION_MOVES,
  StateMoveRefusedError,
  StoreError,
  stateMovesMarkdown,
} from '../../../server/src/store/index.js';
import { engines } from './engines.js';

describe('the table of state moves', () => {
  test('the moves the backend makes are in it', () => {
    const session: [string, string][] = [
      ['open', 'paying'], // claimForPayment
      ['open', 'expired'], // expire
      ['paying', 'open'], // settleAttempt, abandonAttempt: another attempt
      ['open', 'cancelled'], // abandonAttempt: none left
      ['paying', 'cancelled'],
      ['open', 'completed'], // settleAttempt: none left; keep
      ['paying', 'completed'],
    ];
    for (const [from, to] of session) {
      assert.ok(isAllowedMove('session', from as never, to as never), `session ${from} -> ${to}`);
    }
    const pending = ['new', 'processing', 'unknown'];
    const order: [string, string][] = [
      ['awaiting-payment', 'new'], // claimForPayment
      ['awaiting-payment', 'expired'], // expire
      ['new', 'processing'], // startPayment, the hosted form, a status answer
      ['new', 'unknown'], // a lost answer, a status answer
      ['processing', 'unknown'],
      ['unknown', 'processing'],
      ...pending.flatMap((from) =>
        ['approved', 'declined', 'error', 'filtered'].map((to): [string, string] => [from, to]),
      ), // finalizeOrder
    ];
    for (const [from, to] of order) {
      assert.ok(isAllowedMove('order', from as never, to as never), `order ${from} -> ${to}`);
    }
  });

  test('it has no other moves, and staying put is no move', () => {
    assert.equal(isAllowedMove('session', 'completed', 'open'), false);
    // An ended session keeps no late approval (payments/attempts.ts reverses it).
    assert.equal(isAllowedMove('session', 'expired', 'completed'), false);
    assert.equal(isAllowedMove('session', 'cancelled', 'completed'), false);
    assert.equal(isAllowedMove('session', 'expired', 'open'), false);
    assert.equal(isAllowedMove('session', 'cancelled', 'paying'), false);
    assert.equal(isAllowedMove('order', 'approved', 'declined'), false);
    assert.equal(isAllowedMove('order', 'processing', 'new'), false);
    assert.equal(isAllowedMove('order', 'new', 'awaiting-payment'), false);
    assert.equal(isAllowedMove('order', 'expired', 'new'), false);
    assert.equal(isAllowedMove('order', 'processing', 'processing'), true);
    assert.equal(isAllowedMove('session', 'completed', 'completed'), true);
    // Every move named in the table, counted: 7 session pairs and 2 + 2 + 2 + 2 + 12 order pairs.
    const pairs = (moves: readonly { from: readonly string[]; to: readonly string[] }[]) =>
      new Set(moves.flatMap((m) => m.from.flatMap((f) => m.to.map((t) => `${f}>${t}`)))).size;
    assert.equal(pairs(SESSION_MOVES), 7);
    assert.equal(pairs(ORDER_MOVES), 18);
    // A payment link: active to each end, and an expired one paid by an attempt started in time.
    assert.equal(pairs(PAYMENT_LINK_MOVES), 4);
    assert.equal(isAllowedMove('payment link', 'expired', 'paid'), true);
    assert.equal(isAllowedMove('payment link', 'deactivated', 'paid'), false);
    assert.equal(isAllowedMove('payment link', 'paid', 'active'), false);
  });

  test('as Markdown: a header, then one row per move with its why', () => {
    const lines = stateMovesMarkdown().split('\n');
    assert.deepEqual(lines.slice(0, 2), ['| record | from | to | why |', '|---|---|---|---|']);
    assert.equal(
      lines.length,
      2 + SESSION_MOVES.length + ORDER_MOVES.length + PAYMENT_LINK_MOVES.length,
    );
    assert.ok(
      lines.includes(
        '| session | `open` | `paying` | The shopper pays: the claim takes one attempt at a time, so a double submit gets the same one. |',
      ),
    );
    assert.ok(
      lines.includes(
        "| order | (created) | `awaiting-payment` | A session's first attempt, created with the session: nothing paid yet. |",
      ),
    );
    assert.ok(
      lines.includes(
        "| order | `new`, `processing`, `unknown` | `approved`, `declined`, `error`, `filtered` | The gateway's final word (status answer, callback, or a refused request): once, whoever wins. |",
      ),
    );
  });
});

for (const engine of engines()) {
  describe(`moves outside the table, on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });

    test('an order move outside the table is refused, typed, and writes nothing', async () => {
      const order = await store.orders.create({
        clientOrderId: `moves-${process.pid}-1`,
        intent: 'sale',
        amountMinor: 1042,
        currency: 'EUR',
      });
      await store.orders.transition(order.id, { from: ['new'], to: 'approved' });
      const approved = await store.orders.get(order.id);
      await assert.rejects(
        store.orders.transition(order.id, { from: ['approved'], to: 'declined' }),
        (error: unknown) => {
          assert.ok(error instanceof StateMoveRefusedError);
          assert.ok(error instanceof StoreError);
          assert.equal(error.code, 'store-move');
          assert.equal(error.machine, 'order');
          assert.equal(error.from, 'approved');
          assert.equal(error.to, 'declined');
          assert.match(error.message, /order move approved -> declined/);
          return true;
        },
      );
      assert.deepEqual(await store.orders.get(order.id), approved);
      assert.equal(approved?.status, 'approved');
      assert.equal(approved?.version, 2);
    });

    test('one refused pair among several `from` states refuses the whole move', async () => {
      const order = await store.orders.create({
        clientOrderId: `moves-${process.pid}-2`,
        intent: 'sale',
        amountMinor: 500,
        currency: 'EUR',
      });
      await assert.rejects(
        store.orders.transition(order.id, { from: ['new', 'expired'], to: 'processing' }),
        { name: 'StateMoveRefusedError', from: 'expired', to: 'processing' },
      );
      assert.equal((await store.orders.get(order.id))?.status, 'new');
    });

    test('a session move outside the table is refused, typed, and writes nothing', async () => {
      const session = await store.sessions.create({
        clientOrderId: `moves-${process.pid}-3`,
        amountMinor: 700,
        currency: 'EUR',
        intent: 'sale',
        expiresAt: new Date(Date.now() + 600_000),
      });
      const claimed = await store.sessions.claimForPayment(session.id);
      assert.equal(claimed.won, true);
      await store.sessions.transition(session.id, { from: ['paying'], to: 'completed' });
      const before = await store.sessions.get(session.id);
      await assert.rejects(
        store.sessions.transition(session.id, { from: ['completed'], to: 'open' }),
        {
          name: 'StateMoveRefusedError',
          code: 'store-move',
          machine: 'session',
          from: 'completed',
          to: 'open',
        },
      );
      assert.deepEqual(await store.sessions.get(session.id), before);
      assert.equal(before?.state, 'completed');
    });
  });
}
