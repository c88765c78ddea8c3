/**
 * Payment links in the store, on both engines: a link and its visits, the cursor list, ends that
 * are compare-and-set (an expiry only once due, a second end refused), no visit number for a link
 * that ended or is past its expiry, the link of a visit's session (none for a session of no link),
 * payments counted to the cap, and the open sessions of links that ended.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type CheckoutStore,
  type NewPaymentLink,
  newVisitToken,
  PAYMENT_LINK_ID,
  paymentCap,
} from '../../../server/src/store/index.js';
import { engines } from './engines.js';

let counter = 0;
const newLink = (overrides: Partial<NewPaymentLink> = {}): NewPaymentLink => ({
  amountMinor: 2500,
  currency: 'EUR',
  intent: 'sale',
  description: 'Invoice 4111111111111111',
  orderIdPrefix: `store-link-${process.pid}-${++counter}`,
  reusable: false,
  expiresAt: new Date(Date.now() + 86_400_000),
  ...overrides,
});

for (const engine of engines()) {
  describe(`payment links on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });

    /** A visit of `link` with a session of its own. */
    async function addVisit(linkId: string, prefix: string) {
      const n = await store.paymentLinks.nextVisit(linkId);
      assert.ok(n);
      const session = await store.sessions.create({
        clientOrderId: `${prefix}-${n}`,
        amountMinor: 2500,
        currency: 'EUR',
        intent: 'sale',
        expiresAt: new Date(Date.now() + 60_000),
      });
      const visit = await store.paymentLinks.addVisit({
        token: newVisitToken(),
        linkId,
        n,
        sessionId: session.id,
      });
      return { visit, session };
    }

    test('a new link: an unguessable id, active, the description masked, nothing paid', async () => {
      const link = await store.paymentLinks.create(newLink());
      assert.match(link.id, PAYMENT_LINK_ID);
      assert.equal(link.state, 'active');
      assert.equal(link.payments, 0);
      assert.equal(paymentCap(link), 1);
      assert.doesNotMatch(link.description, /4111111111111111/);
      assert.deepEqual(await store.paymentLinks.get(link.id), link);
      assert.equal(await store.paymentLinks.get('plink_AAAAAAAAAAAAAAAAAAAAAA'), null);
    });

    test('listed newest first, page by page', async () => {
      const made = [];
      for (let i = 0; i < 3; i++) made.push(await store.paymentLinks.create(newLink()));
      const first = await store.paymentLinks.list({ limit: 2 });
      assert.deepEqual(
        first.links.map((l) => l.id),
        [made[2]?.id, made[1]?.id],
      );
      assert.ok(first.nextCursor);
      const next = await store.paymentLinks.list({ limit: 2, cursor: first.nextCursor });
      assert.equal(next.links[0]?.id, made[0]?.id);
    });

    test('ends once: an expiry only when due; no visit number once ended or past its expiry', async () => {
      const link = await store.paymentLinks.create(newLink());
      assert.equal(await store.paymentLinks.end(link.id, 'expired'), null, 'not due');
      assert.equal((await store.paymentLinks.end(link.id, 'deactivated'))?.state, 'deactivated');
      assert.equal(await store.paymentLinks.end(link.id, 'deactivated'), null);
      assert.equal(await store.paymentLinks.nextVisit(link.id), null);
      const due = await store.paymentLinks.create(newLink({ expiresAt: new Date(Date.now() - 1) }));
      assert.equal(await store.paymentLinks.nextVisit(due.id), null);
      assert.ok((await store.paymentLinks.dueForExpiry(1000)).includes(due.id));
      assert.equal((await store.paymentLinks.end(due.id, 'expired'))?.state, 'expired');
    });

    test('payments counted under the lock to the cap; then the open visits of the link are listed to end', async () => {
      const prefix = `store-reuse-${engine.name}-${process.pid}`;
      const link = await store.paymentLinks.create(
        newLink({ orderIdPrefix: prefix, reusable: true, maxPayments: 2 }),
      );
      const visits = [
        await addVisit(link.id, prefix),
        await addVisit(link.id, prefix),
        await addVisit(link.id, prefix),
      ];
      assert.deepEqual(
        visits.map((v) => v.visit.n),
        [1, 2, 3],
      );
      for (const [i, { visit, session }] of visits.slice(0, 2).entries()) {
        const after = await store.transaction(async (tx) => {
          const locked = await tx.paymentLinks.lockOfSession(session.id);
          assert.ok(locked);
          assert.equal(locked.visit.token, visit.token);
          return tx.paymentLinks.recordPayment(
            locked.link,
            locked.visit,
            session.orderId as string,
          );
        });
        assert.equal(after.payments, i + 1);
        assert.equal(after.state, i === 1 ? 'paid' : 'active');
      }
      assert.deepEqual(
        (await store.paymentLinks.paidVisits(link.id)).map((v) => v.n),
        [1, 2],
      );
      const byLink = await store.paymentLinks.paidVisitsOfLinks([link.id]);
      assert.equal(byLink.get(link.id)?.length, 2);
      assert.ok(
        (await store.paymentLinks.openSessionsOfClosedLinks(1000)).includes(
          visits[2]?.session.id ?? '',
        ),
      );
      assert.equal(await store.paymentLinks.visit(link.id, 'AAAAAAAAAAAAAAAAAAAAAA'), null);
      assert.equal(
        (await store.paymentLinks.visit(link.id, visits[0]?.visit.token ?? ''))?.sessionId,
        visits[0]?.session.id,
      );
    });

    test('a session of no link has no link to lock', async () => {
      const session = await store.sessions.create({
        clientOrderId: `store-nolink-${engine.name}-${process.pid}`,
        amountMinor: 100,
        currency: 'EUR',
        intent: 'sale',
        expiresAt: new Date(Date.now() + 60_000),
      });
      assert.equal(
        await store.transaction((tx) => tx.paymentLinks.lockOfSession(session.id)),
        null,
      );
    });
  });
}
