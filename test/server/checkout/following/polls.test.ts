/**
 * How the backend asks the gateway about an order (following/poll-schedule.ts, follow.ts,
 * order-news.ts), against a gateway double whose status answers the test releases one by one:
 * the schedule of pauses, one poll shared by concurrent askers, and a long poll answered by
 * whatever comes first, news or its own poll. No wall-clock bounds: what is counted is calls.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, mock, test } from 'node:test';
import type { CheckoutApp } from '../../../../server/src/checkout/app.js';
import { createCheckoutApp } from '../../../../server/src/checkout/app.js';
import type { Gateway } from '../../../../server/src/checkout/context.js';
import {
  type Context,
  DEFAULT_TIMING,
  notifyOrder,
} from '../../../../server/src/checkout/context.js';
import { WAIT } from '../../../../server/src/checkout/following/flow-state.js';
import { followOrder, pollOnce } from '../../../../server/src/checkout/following/follow.js';
import { listenForNews } from '../../../../server/src/checkout/following/order-news.js';
import {
  notePollAnswered,
  notePollStarted,
  untilNextPoll,
} from '../../../../server/src/checkout/following/poll-schedule.js';
import { createLogger } from '../../../../server/src/checkout/logger.js';
import type { StatusResponse } from '../../../../server/src/gateway/index.js';
import {
  type CheckoutStore,
  type Order,
  openCheckoutStore,
} from '../../../../server/src/store/index.js';
import { JWT_SECRET, MERCHANT_API_KEY } from '../../../support/loopback-stack.js';
import { storedOrder } from '../stored-order.js';

/** A gateway whose status calls wait until the test answers them. */
class HeldStatus {
  calls: { answer(status: string): void }[] = [];
  readonly gateway = {
    status: () =>
      new Promise<StatusResponse>((resolve) => {
        this.calls.push({
          answer: (status) => resolve({ type: 'status-response', status, requestId: 'r', raw: {} }),
        });
      }),
  } as unknown as Gateway;

  /** Resolves once `n` status calls have been made in all. */
  async made(n: number): Promise<void> {
    while (this.calls.length < n) await new Promise((resolve) => setImmediate(resolve));
  }
}

let store: CheckoutStore;
let held: HeldStatus;
let app: CheckoutApp;
let ctx: Context;

// One database for the file; each test gets a fresh app (and so fresh poll records) on it.
before(async () => {
  store = await openCheckoutStore({});
});
after(() => store.close());

beforeEach(() => {
  held = new HeldStatus();
  app = createCheckoutApp(
    {
      gateway: { url: 'http://127.0.0.1:9/g', endpointId: '1', login: 'l', controlKey: 'k' },
      merchantApiKey: MERCHANT_API_KEY,
      jwtSecret: JWT_SECRET,
      publicUrl: 'http://127.0.0.1:9',
      allowedOrigins: ['https://shop.example'],
      logLevel: 'silent',
    },
    {
      store,
      gateway: held.gateway,
      logger: createLogger({ level: 'silent' }),
      background: false,
      timing: DEFAULT_TIMING,
    },
  );
  ctx = app.context;
});

afterEach(async () => {
  for (const call of held.calls) call.answer('processing');
  await app.close();
});

const processing = () => storedOrder(store, WAIT);

describe('the poll schedule of one order', () => {
  afterEach(() => mock.timers.reset());

  test('at once, then 250 ms, 1 s, 1.5 s, 2.25 s, 3.375 s, then 5 s; a change starts it again', async () => {
    mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    const order = await processing();
    assert.equal(untilNextPoll(ctx, order, false), 0);
    const pauses: number[] = [];
    for (let i = 0; i < 8; i++) {
      notePollStarted(ctx, order);
      pauses.push(untilNextPoll(ctx, order, false));
    }
    assert.deepEqual(pauses, [250, 1000, 1500, 2250, 3375, 5000, 5000, 5000]);
    // On a page we do not see (a challenge), never more often than browserStepPollMs.
    assert.equal(untilNextPoll(ctx, order, true), 5000);
    // A poll that found the order changed: the short second pause again.
    notePollAnswered(ctx, order, { ...order, version: order.version + 1 });
    assert.equal(untilNextPoll(ctx, { ...order, version: order.version + 1 }, false), 250);
    // Someone else changed it (a newer version than the last poll saw): ask at once.
    assert.equal(untilNextPoll(ctx, { ...order, version: order.version + 2 }, false), 0);
    mock.timers.tick(200);
    assert.equal(untilNextPoll(ctx, { ...order, version: order.version + 1 }, false), 50);
  });
});

describe('one status poll shared by concurrent askers', () => {
  test('two turns of long polls ask the gateway once', async () => {
    const order = await processing();
    const a = pollOnce(ctx, order, { anyAnswer: true });
    const b = pollOnce(ctx, order, { anyAnswer: true });
    await held.made(1);
    held.calls[0]?.answer('processing');
    assert.deepEqual(
      [(await a).status, (await b).status, held.calls.length],
      ['processing', 'processing', 1],
    );
  });

  test('news (a callback) joining a poll already out: its final answer will do', async () => {
    const order = await processing();
    const turn = pollOnce(ctx, order, { anyAnswer: true });
    const hint = pollOnce(ctx, order);
    await held.made(1);
    held.calls[0]?.answer('approved');
    assert.deepEqual([(await turn).status, (await hint).status], ['approved', 'approved']);
    assert.equal(held.calls.length, 1);
  });

  test('news joining a poll already out: a pending answer may predate it, so it asks again', async () => {
    const order = await processing();
    const turn = pollOnce(ctx, order, { anyAnswer: true });
    const hint = pollOnce(ctx, order);
    await held.made(1);
    held.calls[0]?.answer('processing');
    assert.equal((await turn).status, 'processing');
    await held.made(2);
    held.calls[1]?.answer('approved');
    assert.equal((await hint).status, 'approved');
    assert.equal(held.calls.length, 2);
  });
});

describe('a long poll answers whatever comes first', () => {
  test('news that lands while the long poll is busy reading is not lost', async () => {
    const order = await processing();
    const news = listenForNews(ctx, order.id);
    notifyOrder(ctx, order.id);
    // The news came before the wait: the wait returns at once, not after 25 s.
    await news.wait(25_000);
    news.close();
  });

  test("the gateway's final answer to the long poll's own poll ends it", async () => {
    const order: Order = await processing();
    const follow = followOrder(ctx, order, 25_000);
    await held.made(1);
    held.calls[0]?.answer('processing');
    // The second poll is the short one (250 ms after the first).
    await held.made(2);
    held.calls[1]?.answer('approved');
    assert.equal((await follow).status, 'approved');
    assert.equal(held.calls.length, 2);
  });

  test('a callback finalising the order elsewhere ends the long poll without another poll', async () => {
    const order = await processing();
    const follow = followOrder(ctx, order, 25_000);
    await held.made(1);
    held.calls[0]?.answer('processing');
    // The callback's own poll (shared or not) finds it approved and wakes the long poll.
    const hint = pollOnce(ctx, order);
    await held.made(2);
    held.calls[1]?.answer('approved');
    await hint;
    assert.equal((await follow).status, 'approved');
    assert.equal(held.calls.length, 2);
  });

  test('closing the instance ends a long poll at once, where the order stands', async () => {
    const order = await processing();
    const follow = followOrder(ctx, order, 25_000);
    await held.made(1);
    held.calls[0]?.answer('processing');
    const closing = app.close();
    assert.equal((await follow).status, 'processing');
    await closing;
  });
});
