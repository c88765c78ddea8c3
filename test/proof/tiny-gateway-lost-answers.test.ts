/**
 * Lost answers against a gateway written here from the spec's words and docs/gateway.md alone,
 * not the sandbox: it checks every control with its own SHA-1 (spec "Payments and transaction
 * management": return = login, client_orderid, orderid, amount in cents, currency; status = login,
 * client_orderid, orderid or "" when absent; sale = endpointId, client_orderid, amount in cents,
 * email) and every v4 signature with `oauth-1.0a` and the merchant's public key, answers `status`
 * with the fields of docs/gateway.md#response-field-names (`transaction-type` the type of the
 * transaction's latest step), and drops the connection after acting when told to. What the backend
 * believes must match what this gateway holds: one refund per Idempotency-Key, a status that cannot
 * tell two equal returns apart never taken for the second, a return that never reached the
 * gateway sent again once its status shows the sale as the latest step (one refund), a payout whose
 * check answer was lost paid once, and a payment attempt whose answer was lost never left for
 * another card: it is followed to its one charge.
 */
import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import OAuth from 'oauth-1.0a';
import {
  type Backend,
  createSession,
  merchant,
  payBody,
  type Sandbox,
  Shopper,
  startBackend,
  startSandbox,
  uniqueOrderId,
  waitFor,
} from './support/proof.js';

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');
const cents = (amount: string) => String(Math.round(Number(amount) * 100));

interface Step {
  type: string;
  amount: string;
}
interface Tx {
  orderid: string;
  clientOrderId: string;
  currency: string;
  steps: Step[];
}

/** The tiny gateway: a ledger per client order id, and the rules above. */
function tinyGateway(merchant: { endpointId: string; login: string; key: string; rsa: string }) {
  const ledger = new Map<string, Tx>();
  const refused: string[] = [];
  const drop = new Set<string>();
  /** Operations whose next request is cut before the gateway reads it: never taken. */
  const lose = new Set<string>();
  let next = 9000;
  const publicKey = createPublicKey(merchant.rsa);

  const oauthValid = (req: IncomingMessage, url: string, data: Record<string, string>) => {
    const header = String(req.headers.authorization ?? '');
    const params = Object.fromEntries(
      [...header.replace(/^OAuth /, '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [
        m[1],
        decodeURIComponent(m[2] ?? ''),
      ]),
    ) as Record<string, string>;
    const { oauth_signature: signature = '', ...oauthData } = params;
    const base = new OAuth({
      consumer: { key: merchant.login, secret: '' },
      signature_method: 'RSA-SHA256',
      // Only the base string is built here; the signature is verified with the public key.
      hash_function: () => '',
    }).getBaseString({ url, method: 'POST', data }, oauthData as unknown as OAuth.Data);
    return (
      params.oauth_consumer_key === merchant.login &&
      verify('RSA-SHA256', Buffer.from(base), publicKey, Buffer.from(signature, 'base64'))
    );
  };

  const answer = (res: ServerResponse, body: Record<string, string>, status = 200) => {
    res.writeHead(status, { 'content-type': 'application/vnd.pay+json' });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, what: string) => {
    refused.push(what);
    answer(res, { type: 'validation-error', 'error-message': what, 'error-code': '1' }, 400);
  };
  const actThenAnswer = (res: ServerResponse, op: string, tx: Tx) => {
    if (drop.delete(op)) {
      res.socket?.destroy();
      return;
    }
    answer(res, {
      type: 'async-response',
      status: 'processing',
      'paynet-order-id': tx.orderid,
      'merchant-order-id': tx.clientOrderId,
      'serial-number': `sn-${next++}`,
    });
  };

  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      const data = Object.fromEntries(new URLSearchParams(text)) as Record<string, string>;
      const path = new URL(req.url ?? '/', 'http://tiny').pathname;
      const [, op] = /^\/paynet\/api\/v[24]\/([a-z-]+)\//.exec(path) ?? [];
      const url = `http://${req.headers.host}${path}`;
      const id = data.client_orderid ?? data['client-order-id'] ?? '';
      const tx = ledger.get(id);
      if (op && lose.delete(op)) {
        res.socket?.destroy();
        return;
      }
      switch (op) {
        case 'sale':
        case 'preauth': {
          const c = sha1(
            `${merchant.endpointId}${id}${cents(data.amount ?? '')}${data.email}${merchant.key}`,
          );
          if (data.control !== c) return refuse(res, 'sale control');
          const created = {
            orderid: String(next++),
            clientOrderId: id,
            currency: data.currency ?? '',
            steps: [{ type: op, amount: data.amount ?? '' }],
          };
          ledger.set(id, created);
          return actThenAnswer(res, op, created);
        }
        case 'return': {
          // The inputs are "the request fields of the same name": a full return sends neither
          // amount nor currency, and returns what the sale took.
          const amount = data.amount === undefined ? '' : cents(data.amount);
          const c = sha1(
            `${merchant.login}${id}${data.orderid}${amount}${data.currency ?? ''}${merchant.key}`,
          );
          if (data.control !== c || !tx || tx.orderid !== data.orderid)
            return refuse(res, 'return control');
          tx.steps.push({ type: 'return', amount: data.amount ?? tx.steps[0]?.amount ?? '' });
          return actThenAnswer(res, op, tx);
        }
        case 'void': {
          // Spec: void = login, client_orderid, orderid; it releases the whole hold.
          const c = sha1(`${merchant.login}${id}${data.orderid}${merchant.key}`);
          if (data.control !== c || !tx || tx.orderid !== data.orderid)
            return refuse(res, 'void control');
          tx.steps.push({ type: 'void', amount: tx.steps[0]?.amount ?? '' });
          return actThenAnswer(res, op, tx);
        }
        case 'status': {
          const c = sha1(`${merchant.login}${id}${data.orderid ?? ''}${merchant.key}`);
          if (data.control !== c) return refuse(res, 'status control');
          if (!tx)
            return answer(res, { type: 'validation-error', 'error-message': 'no such order' }, 400);
          const last = tx.steps.at(-1) as Step;
          return answer(res, {
            type: 'status-response',
            status: 'approved',
            'transaction-type': last.type,
            amount: last.amount,
            currency: tx.currency,
            'paynet-order-id': tx.orderid,
            'merchant-order-id': tx.clientOrderId,
            'serial-number': `sn-${next++}`,
          });
        }
        case 'payout-check': {
          if (!oauthValid(req, url, data)) return refuse(res, 'payout-check signature');
          const created = {
            orderid: String(next++),
            clientOrderId: id,
            currency: data.currency ?? '',
            // A check moves nothing: the status of a registered payout shows no amount paid.
            steps: [{ type: 'payout-check', amount: '0.00' }],
          };
          ledger.set(id, created);
          return actThenAnswer(res, op, created);
        }
        case 'payout-pay': {
          if (!oauthValid(req, url, data) || !tx) return refuse(res, 'payout-pay signature');
          if (tx.steps.some((s) => s.type === 'payout')) return refuse(res, 'payout paid already');
          tx.steps.push({ type: 'payout', amount: (Number(data.amount ?? 0) || 15).toFixed(2) });
          return actThenAnswer(res, op, tx);
        }
        default:
          return refuse(res, `no operation ${path}`);
      }
    });
  });
  return { server, ledger, refused, drop, lose };
}

describe('lost answers against a gateway written from the spec', () => {
  let sb: Sandbox;
  let be: Backend;
  let tiny: ReturnType<typeof tinyGateway>;
  before(async () => {
    // The sandbox only lends the dev merchant's credentials; every call goes to the tiny gateway.
    sb = await startSandbox();
    const dev = sb.sandbox.devCredentials;
    assert.ok(dev);
    tiny = tinyGateway({
      endpointId: dev.endpointId,
      login: dev.login,
      key: dev.controlKey,
      rsa: readFileSync(dev.privateKeyFile, 'utf8'),
    });
    await new Promise<void>((resolve) => tiny.server.listen(0, '127.0.0.1', resolve));
    const { port } = tiny.server.address() as AddressInfo;
    be = await startBackend(sb, {
      config: {
        gateway: {
          url: `http://127.0.0.1:${port}/paynet`,
          endpointId: dev.endpointId,
          login: dev.login,
          controlKey: dev.controlKey,
          privateKeyFile: dev.privateKeyFile,
        },
      },
      // A money operation left unknown is asked about again soon (money-ops.ts resendIfNeverArrived).
      timing: { sendLeaseMs: 300 },
    });
  });
  after(async () => {
    assert.deepEqual(
      tiny.refused,
      [],
      'every request the backend sent was signed as the spec says',
    );
    await be.close();
    tiny.server.closeAllConnections();
    await new Promise((resolve) => tiny.server.close(resolve));
    await sb.close();
  });

  const returns = (orderId: string) =>
    tiny.ledger
      .get(orderId)
      ?.steps.filter((s) => s.type === 'return')
      .map((s) => s.amount);
  const keyedReturn = (orderId: string, amount: string, key: string) =>
    merchant(
      be.url,
      'POST',
      `/v1/orders/${orderId}/return`,
      { amount },
      { 'Idempotency-Key': key },
    );

  it('a return whose answer is lost: 202 unknown, settled from status, one refund per key; its equal twin is never taken from the same status', async () => {
    const session = await createSession(be.url, { amount: '10.00' });
    const paid = await new Shopper(be.url, session.token).complete({ pan: '4000000000000002' });
    assert.equal(paid.order.status, 'approved');
    const orderId = session.orderId;

    tiny.drop.add('return');
    const first = await keyedReturn(orderId, '2.00', `r1-${orderId}`);
    assert.equal(first.status, 202, JSON.stringify(first.body));
    assert.equal(first.body.operation.status, 'unknown');
    await waitFor('the return settled from the gateway status', async () => {
      await be.checkout.reconcile(0);
      return (
        (await merchant(be.url, 'GET', `/v1/orders/${orderId}`)).body.returnedAmount === '2.00'
      );
    });
    const retry = await keyedReturn(orderId, '2.00', `r1-${orderId}`);
    assert.equal(retry.body.operation.id, first.body.operation.id);
    assert.deepEqual(returns(orderId), ['2.00']);

    // A second 2.00, answer lost: the status (a return of 2.00, approved) may describe either.
    tiny.drop.add('return');
    const twin = await keyedReturn(orderId, '2.00', `r2-${orderId}`);
    assert.equal(twin.status, 202, JSON.stringify(twin.body));
    await be.checkout.reconcile(0);
    await be.checkout.reconcile(0);
    const read = await merchant(be.url, 'GET', `/v1/operations/${twin.body.operation.id}`);
    assert.equal(read.body.status, 'unknown');
    assert.equal(
      (await merchant(be.url, 'GET', `/v1/orders/${orderId}`)).body.returnedAmount,
      '2.00',
    );
    const resolved = await merchant(be.url, 'POST', `/v1/operations/${read.body.id}/resolve`, {
      status: 'approved',
      note: 'Back office: two returns of 2.00',
    });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    assert.equal(
      (await merchant(be.url, 'GET', `/v1/orders/${orderId}`)).body.returnedAmount,
      '4.00',
    );
    assert.deepEqual(returns(orderId), ['2.00', '2.00']);
  });

  it('a return whose request never reached the gateway is sent again once the status shows the sale as the latest step: one refund', async () => {
    const session = await createSession(be.url, { amount: '10.00' });
    const paid = await new Shopper(be.url, session.token).complete({ pan: '4000000000000002' });
    assert.equal(paid.order.status, 'approved');
    tiny.lose.add('return');
    const first = await keyedReturn(session.orderId, '3.00', `never-${session.orderId}`);
    assert.equal(first.status, 202, JSON.stringify(first.body));
    assert.equal(first.body.operation.status, 'unknown');
    assert.deepEqual(returns(session.orderId), []);
    await waitFor('the return sent again and settled', async () => {
      await be.checkout.reconcile(0);
      const read = await merchant(be.url, 'GET', `/v1/operations/${first.body.operation.id}`);
      return read.body.status === 'approved';
    });
    assert.deepEqual(returns(session.orderId), ['3.00']);
    await be.checkout.reconcile(0);
    assert.deepEqual(returns(session.orderId), ['3.00']);
    const view = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
    assert.equal(view.body.returnedAmount, '3.00');
  });

  for (const intent of ['sale', 'preauth'] as const) {
    it(`a ${intent} whose answer was lost cannot be left for another card: it is followed to its answer, one charge`, async () => {
      const session = await createSession(be.url, { amount: '10.00', intent });
      const shopper = new Shopper(be.url, session.token);
      tiny.drop.add(intent);
      const lost = await shopper.pay({ pan: '4000000000000002' });
      assert.equal(lost.order.status, 'unknown');
      // It showed no bank page and may be at the gateway: leaving it would put a second sale
      // beside it (round 4, R4-L3), so the shopper waits for its answer instead.
      const left = await shopper.call('POST', '/cancel', { reason: 'shopper-left' });
      assert.deepEqual([left.status, left.body.error?.code], [409, 'payment-in-flight']);
      // Pay again (a double submit, or another card): the same attempt, nothing new sent.
      const again = await shopper.call('POST', '/pay', payBody('4000000000000002'));
      assert.deepEqual(
        [again.status, again.body.order?.attemptId, again.body.order?.status],
        [200, session.orderId, 'unknown'],
      );
      await waitFor('the lost attempt found approved', async () => {
        await be.checkout.reconcile(0);
        const view = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
        return view.body.status === 'approved';
      });
      assert.deepEqual(
        tiny.ledger.get(session.orderId)?.steps.map((step) => step.type),
        [intent],
      );
      assert.equal(tiny.ledger.get(`${session.orderId}-2`), undefined);
      const view = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
      assert.deepEqual(
        [view.body.status, view.body.attempts.length, view.body.returnedAmount, view.body.voided],
        ['approved', 1, '0.00', false],
      );
    });
  }

  it('a payout check whose answer is lost is asked by its client order id alone, found registered, and paid once', async () => {
    const orderId = uniqueOrderId('tiny-po');
    tiny.drop.add('payout-check');
    const check = await merchant(be.url, 'POST', '/v1/payouts/check', {
      orderId,
      amount: '15.00',
      currency: 'EUR',
      cardNumber: '4000000000000002',
    });
    assert.equal(check.status, 502, JSON.stringify(check.body));
    await waitFor('the payout found registered', async () => {
      await be.checkout.reconcile(0);
      return (await merchant(be.url, 'GET', `/v1/payouts/${orderId}`)).body.status === 'registered';
    });
    const pay = await merchant(be.url, 'POST', `/v1/payouts/${orderId}/pay`, {});
    assert.equal(pay.status, 200, JSON.stringify(pay.body));
    assert.equal(pay.body.status, 'approved');
    assert.deepEqual(
      tiny.ledger.get(orderId)?.steps.map((s) => s.type),
      ['payout-check', 'payout'],
    );
  });
});
