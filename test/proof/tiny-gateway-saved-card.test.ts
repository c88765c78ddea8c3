/**
 * A saved card, end to end, against a gateway written here from the spec's words alone, not the
 * sandbox. Its controls are SHA-1 of the spec's inputs in the spec's order, then the control key
 * (spec "Card references and rebill": create-card-ref = login, client_orderid, orderid;
 * make-rebill = login, client_orderid, cardrefid, amount in cents, currency; "Payments and
 * transaction management": sale = endpointId, client_orderid, amount in cents, email; status =
 * login, client_orderid, orderid). get-card-info "takes `cardrefid` and returns BIN, brand, masked
 * PAN and expiration" (its control: "none stated"), under the names of
 * docs/gateway.md#response-field-names. What it proves: the card the shopper agreed to save is
 * tokenised once, and paying with it later is one make-rebill that carries a valid control, the
 * `cvv2` the shopper typed and the shopper's own IP as `ipaddress` (not the merchant server's).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { devMerchantAt } from '../support/loopback-stack.js';
import {
  sha1,
  startTinyGateway,
  type TinyGateway,
  type TinyHandler,
  type TinyReply,
} from '../support/tiny-gateway.js';
import {
  type Backend,
  BROWSER,
  createSession,
  MERCHANT_ORIGIN,
  merchant,
  type Sandbox,
  Shopper,
  startBackend,
  startSandbox,
  waitFor,
} from './support/proof.js';

const cents = (amount: string) => String(Math.round(Number(amount) * 100));

interface Tx {
  orderid: string;
  type: 'sale' | 'rebill';
  amount: string;
  currency: string;
  card: { bin: string; last4: string; holder: string; month: string; year: string };
}

/** The tiny gateway's rules: transactions and card references by id, and what each rebill carried. */
function tinyRules(merchant: { endpointId: string; login: string; key: string }) {
  const txs = new Map<string, Tx>();
  const refs = new Map<string, Tx['card']>();
  const rebills: Record<string, string>[] = [];
  const cardRefsMade: string[] = [];
  let next = 7000;

  const accepted = (reply: TinyReply, id: string, tx: Tx) =>
    reply.answer({
      type: 'async-response',
      status: 'processing',
      'paynet-order-id': tx.orderid,
      'merchant-order-id': id,
      'serial-number': `sn-${next++}`,
    });

  const handle: TinyHandler = (op, data, reply) => {
    const id = data.client_orderid ?? '';
    const { login, key, endpointId } = merchant;
    switch (op) {
      case 'sale': {
        if (
          data.control !== sha1(`${endpointId}${id}${cents(data.amount ?? '')}${data.email}${key}`)
        )
          return reply.refuse('sale control');
        const pan = data.credit_card_number ?? '';
        const tx: Tx = {
          orderid: String(next++),
          type: 'sale',
          amount: data.amount ?? '',
          currency: data.currency ?? '',
          card: {
            bin: pan.slice(0, 6),
            last4: pan.slice(-4),
            holder: data.card_printed_name ?? '',
            month: data.expire_month ?? '',
            year: data.expire_year ?? '',
          },
        };
        txs.set(id, tx);
        return accepted(reply, id, tx);
      }
      case 'create-card-ref': {
        const tx = txs.get(id);
        if (
          data.control !== sha1(`${login}${id}${data.orderid}${key}`) ||
          !tx ||
          tx.orderid !== data.orderid
        )
          return reply.refuse('create-card-ref control');
        const cardRefId = `ref-${next++}`;
        refs.set(cardRefId, tx.card);
        cardRefsMade.push(id);
        return reply.answer({
          type: 'create-card-ref-response',
          status: 'approved',
          'card-ref-id': cardRefId,
        });
      }
      case 'get-card-info': {
        const card = refs.get(data.cardrefid ?? '');
        if (!card) return reply.refuse('get-card-info: no such cardrefid');
        return reply.answer({
          type: 'get-card-info-response',
          bin: card.bin,
          'last-four-digits': card.last4,
          'card-type': 'VISA',
          'card-exp-month': card.month,
          'card-exp-year': card.year,
          'cardholder-name': card.holder,
        });
      }
      case 'make-rebill': {
        const c = sha1(
          `${login}${id}${data.cardrefid}${cents(data.amount ?? '')}${data.currency}${key}`,
        );
        const card = refs.get(data.cardrefid ?? '');
        if (data.control !== c || !card) return reply.refuse('make-rebill control');
        rebills.push(data);
        const tx: Tx = {
          orderid: String(next++),
          type: 'rebill',
          amount: data.amount ?? '',
          currency: data.currency ?? '',
          card,
        };
        txs.set(id, tx);
        return accepted(reply, id, tx);
      }
      case 'status': {
        const tx = txs.get(id);
        if (data.control !== sha1(`${login}${id}${data.orderid ?? ''}${key}`) || !tx)
          return reply.refuse('status control');
        return reply.answer({
          type: 'status-response',
          status: 'approved',
          'transaction-type': tx.type,
          amount: tx.amount,
          currency: tx.currency,
          'paynet-order-id': tx.orderid,
          'merchant-order-id': id,
          'serial-number': `sn-${next++}`,
        });
      }
      default:
        return reply.refuse(`no operation ${op}`);
    }
  };
  return { handle, rebills, cardRefsMade };
}

describe('a saved card against a gateway written from the spec', () => {
  let sb: Sandbox;
  let be: Backend;
  let rules: ReturnType<typeof tinyRules>;
  let tiny: TinyGateway;
  before(async () => {
    // The sandbox only lends the dev merchant's credentials; every call goes to the tiny gateway.
    sb = await startSandbox();
    const dev = sb.sandbox.devCredentials;
    assert.ok(dev);
    rules = tinyRules({ endpointId: dev.endpointId, login: dev.login, key: dev.controlKey });
    tiny = await startTinyGateway(rules.handle);
    be = await startBackend(sb, {
      config: {
        gateway: devMerchantAt(sb, tiny.url),
        // One proxy in front: the shopper's own address arrives in X-Forwarded-For.
        trustProxy: 1,
      },
    });
  });
  after(async () => {
    assert.deepEqual(
      tiny.refused,
      [],
      'every request the backend sent was signed as the spec says',
    );
    await be.close();
    await tiny.close();
    await sb.close();
  });

  it('saved with consent once; paid later by make-rebill with its control, the cvv2 typed and the shopper IP', async () => {
    const first = await createSession(be.url, { saveCard: 'ask' });
    const paid = await new Shopper(be.url, first.token).complete({
      pan: '4000000000000002',
      saveCard: true,
    });
    assert.equal(paid.order.status, 'approved');
    const cardRef = await waitFor(
      'the card kept',
      async () => (await merchant(be.url, 'GET', `/v1/orders/${first.orderId}`)).body.cardRef,
    );
    assert.deepEqual(
      [cardRef.brand, cardRef.last4, cardRef.expMonth, cardRef.expYear, cardRef.holder],
      ['VISA', '0002', '12', '2030', 'John Smith'],
    );
    assert.deepEqual(rules.cardRefsMade, [first.orderId]);

    const next = await createSession(be.url, { savedCards: [cardRef.id], amount: '7.35' });
    const shopper = new Shopper(be.url, next.token);
    const view = (await shopper.call('GET', '/session')).body;
    const handle = view.savedCards[0].handle;
    const res = await fetch(`${be.url}/widget/pay`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${next.token}`,
        Origin: MERCHANT_ORIGIN,
        'Content-Type': 'application/json',
        'X-Forwarded-For': '198.51.100.23',
      },
      body: JSON.stringify({ savedCard: handle, cvc: '4321', browser: BROWSER }),
    });
    assert.equal(res.status, 200);
    const final = await shopper.complete({ pan: '' }, await res.json());
    assert.equal(final.order.status, 'approved');

    assert.equal(rules.rebills.length, 1);
    const [rebill] = rules.rebills;
    assert.deepEqual(
      {
        client_orderid: rebill?.client_orderid,
        cardrefid: rebill?.cardrefid,
        amount: rebill?.amount,
        currency: rebill?.currency,
        cvv2: rebill?.cvv2,
        ipaddress: rebill?.ipaddress,
        login: rebill?.login,
      },
      {
        client_orderid: next.orderId,
        cardrefid: cardRef.id,
        amount: '7.35',
        currency: 'EUR',
        cvv2: '4321',
        ipaddress: '198.51.100.23',
        login: sb.sandbox.devCredentials?.login,
      },
    );
    // The card was not tokenised again by paying with it.
    assert.deepEqual(rules.cardRefsMade, [first.orderId]);

    // The code went to the gateway only; the card's expiry and holder were shown, never kept.
    const tables = await be.store.db.query<{ table_name: string }>(
      `select table_name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    assert.ok(
      tables.rows.some((r) => r.table_name === 'card_refs'),
      'the backend tables',
    );
    const texts = [...be.logs];
    for (const { table_name } of tables.rows) {
      const { rows } = await be.store.db.query<{ t: string }>(
        `select t::text as t from "${table_name}" t`,
      );
      texts.push(...rows.map((r) => `${table_name}: ${r.t}`));
    }
    for (const text of texts) {
      assert.ok(!/(^|[^0-9a-f])4321([^0-9a-f]|$)/i.test(text), `the code is kept: ${text}`);
      assert.ok(!text.includes('John Smith'), `the holder is kept: ${text}`);
      assert.ok(!/cvv2|exp(ire)?[-_]?(month|year)|card-exp/i.test(text), `card data: ${text}`);
    }
  });
});
