/**
 * Card number, CVV, expiry, holder name and secrets never reach the store, whichever writer a
 * caller uses: every writer is fed card data, then every table's rows are searched as text.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkoutMigrations } from '../../../server/src/store/index.js';
import { engines } from './engines.js';

const PAN = '4111111111111111';
const CVV = '7319';
const HOLDER = 'JANE QSHOPPER';
const SECRET = 'control-key-SECRET-value';

const card = {
  credit_card_number: PAN,
  'credit-card-number': PAN,
  cvv2: CVV,
  expire_month: '12',
  expire_year: '2031',
  card_printed_name: HOLDER,
  control: SECRET,
  oauth_signature: SECRET,
  merchant_control_key: SECRET,
};

for (const engine of engines()) {
  describe(`no card data in any table on ${engine.name}`, () => {
    test('every writer strips card data; every table is searched', async () => {
      const store = await engine.open();
      try {
        const session = await store.sessions.create({
          clientOrderId: 'pci-1',
          amountMinor: 1000,
          currency: 'EUR',
          intent: 'sale',
          customer: { email: 'a@example.com', ...card },
          metadata: { note: `card ${PAN}`, ...card },
          expiresAt: new Date(Date.now() + 60_000),
        });
        const claim = await store.sessions.claimForPayment(session.id, {
          cardBrand: 'visa',
          cardLast4: '1111',
          cardMasked: '411111******1111',
        });
        const orderId = claim.order?.id as string;
        await store.history.record({
          orderId,
          operation: 'SALE',
          request: { client_orderid: 'pci-1', order_desc: `x ${PAN} y`, ...card },
          response: { type: 'async-response', echo: { ...card } },
          httpStatus: 200,
        });
        await store.history.record({
          orderId,
          operation: 'STATUS',
          request: { client_orderid: 'pci-1', order_desc: `x ${PAN} y`, ...card },
          response: { type: 'status-response', echo: { ...card } },
          error: `failed for ${PAN}`,
        });
        await store.callbacks.recordOnce({
          gatewayOrderId: '1',
          clientOrderId: 'pci-1',
          status: 'approved',
          query: new URLSearchParams({ status: 'approved', ...card }),
        });
        const op = await store.operations.create({
          kind: 'payout',
          clientId: 'pci-payout',
          data: { ...card, nested: [{ ...card }] },
        });
        await store.operations.transition(op.id, {
          from: ['new'],
          to: 'processing',
          patch: { data: card },
        });
        await store.webhooks.enqueue({
          event: 'order.approved',
          payload: { orderId, ...card },
          orderId,
        });
        // A saved card: its reference keeps brand and last four only, and a session offers it.
        await store.cardRefs.register({ id: 'ref-pci', orderId, brand: 'VISA', last4: '1111' });
        await store.sessions.create({
          clientOrderId: 'pci-2',
          amountMinor: 1000,
          currency: 'EUR',
          intent: 'sale',
          customer: { email: 'a@example.com', ...card },
          saveCard: 'ask',
          savedCards: ['ref-pci'],
          expiresAt: new Date(Date.now() + 60_000),
        });

        // A payment link and a visit of it: the link's words are stored and shown on its page.
        const link = await store.paymentLinks.create({
          amountMinor: 1000,
          currency: 'EUR',
          intent: 'sale',
          description: `Invoice for card ${PAN}`,
          orderIdPrefix: 'pci-link',
          customer: { email: 'a@example.com', ...card },
          metadata: { note: `card ${PAN}`, ...card },
          reusable: false,
          expiresAt: new Date(Date.now() + 60_000),
        });
        await store.paymentLinks.addVisit({
          token: 'visit-pci',
          linkId: link.id,
          n: 1,
          sessionId: session.id,
        });
        const tables = await store.db.query<{ table_name: string }>(
          `select table_name from information_schema.tables
           where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
        );
        assert.equal(tables.rows.length, 13);
        let rowsSearched = 0;
        for (const { table_name } of tables.rows) {
          const { rows } = await store.db.query<{ t: string }>(
            `select t::text as t from "${table_name}" t`,
          );
          for (const { t } of rows) {
            rowsSearched += 1;
            assert.ok(!t.includes(PAN), `${table_name} holds the PAN: ${t}`);
            // Not as part of a longer number or a hex id.
            assert.ok(
              !/(^|[^0-9a-f])7319([^0-9a-f]|$)/i.test(t),
              `${table_name} holds the CVV: ${t}`,
            );
            assert.ok(!t.includes(HOLDER), `${table_name} holds the holder name`);
            assert.ok(!t.includes(SECRET), `${table_name} holds a secret`);
            assert.ok(
              !/cvv2|credit.card.number|expire_(month|year)/.test(t),
              `${table_name}: ${t}`,
            );
          }
        }
        // One row each in callbacks, operations, webhooks, card refs, session cards, payment links
        // and their visits, two each in sessions, orders and history (append and record), three
        // client order ids (the two sessions' and the payout's), and one per migration.
        assert.equal(rowsSearched, 16 + checkoutMigrations.length);
        // What stays: brand, last four, the masked number.
        const order = await store.orders.get(orderId);
        assert.equal(order?.cardMasked, '411111******1111');
        assert.equal(
          (await store.sessions.get(session.id))?.metadata.note,
          'card 411111******1111',
        );
      } finally {
        await engine.close(store);
      }
    });
  });
}
