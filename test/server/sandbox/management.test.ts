import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TEST_CARDS } from '../../../server/src/sandbox/index.js';
import {
  control,
  type Harness,
  postForm,
  saleRequest,
  startSandbox,
  waitForStatus,
} from './helpers.js';

const APPROVED = TEST_CARDS.find((c) => c.scenario === 'approved')!.pan;
const DECLINED = TEST_CARDS.find((c) => c.scenario === 'declined')!.pan;

let h: Harness;
before(async () => {
  h = await startSandbox();
});
after(() => h.close());

async function approved(kind: 'sale' | 'preauth', pan = APPROVED) {
  const request = saleRequest(pan);
  const ack = await h.client[kind](request);
  await waitForStatus(h, request.client_orderid, ack.orderId!);
  return { client_orderid: request.client_orderid, orderid: ack.orderId! };
}

type Op = 'capture' | 'void' | 'return';
/** Sends a management call; resolves to the final status on success, or the 400 message. */
async function run(
  op: Op,
  o: { client_orderid: string; orderid: string },
  partial?: [string, string],
) {
  const fields: Record<string, string> = {
    login: h.login,
    client_orderid: o.client_orderid,
    orderid: o.orderid,
  };
  if (partial) Object.assign(fields, { amount: partial[0], currency: partial[1] });
  fields.control = control(h, op, fields);
  const r = await postForm(`${h.base}/api/v2/${op}/${h.endpointId}`, fields);
  if (r.status !== 200) return { refused: r.body['error-message']!, status: r.status };
  assert.equal(r.body.status, 'processing');
  const final = await waitForStatus(h, o.client_orderid, o.orderid);
  return { final };
}

describe('rule 1: a preauth holds funds until capture, void or return', () => {
  test('allowed: capture settles the hold', async () => {
    const o = await approved('preauth');
    const r = await run('capture', o);
    assert.equal(r.final?.status, 'approved');
    assert.equal(r.final?.raw['transaction-type'], 'capture');
    assert.equal(r.final?.raw.amount, '10.42');
  });
  test('refused: a second capture after the hold ended', async () => {
    const o = await approved('preauth');
    await run('capture', o, ['5.00', 'EUR']);
    const r = await run('capture', o, ['1.00', 'EUR']);
    assert.match(r.refused ?? '', /already captured/);
  });
  test('refused: capture of a sale (nothing held)', async () => {
    const r = await run('capture', await approved('sale'));
    assert.match(r.refused ?? '', /only a preauth/);
  });
});

describe('rule 2: return on a preauth releases the hold; on a sale it refunds', () => {
  test('allowed: return releases a hold, then capture is refused', async () => {
    const o = await approved('preauth');
    assert.equal((await run('return', o)).final?.raw['transaction-type'], 'return');
    assert.match((await run('capture', o)).refused ?? '', /released/);
  });
  test('refused: a partial release of a hold', async () => {
    const r = await run('return', await approved('preauth'), ['1.00', 'EUR']);
    assert.match(r.refused ?? '', /whole hold/);
  });
});

describe('rule 3: return only from a final successful status', () => {
  test('allowed: return of an approved sale', async () => {
    assert.equal((await run('return', await approved('sale'))).final?.status, 'approved');
  });
  test('refused: return of a declined sale', async () => {
    const r = await run('return', await approved('sale', DECLINED));
    assert.match(r.refused ?? '', /declined, not a final successful status/);
  });
  test('refused: return while still processing, state unchanged', async () => {
    const request = saleRequest(TEST_CARDS.find((c) => c.scenario === '3ds2-challenge')!.pan);
    const ack = await h.client.sale(request);
    const r = await run('return', {
      client_orderid: request.client_orderid,
      orderid: ack.orderId!,
    });
    assert.match(r.refused ?? '', /not in a final status/);
  });
});

describe('rule 4: void only while authorized and unsettled, never with an amount', () => {
  test('allowed: void of a held preauth', async () => {
    const r = await run('void', await approved('preauth'));
    assert.equal(r.final?.raw['transaction-type'], 'void');
  });
  test('refused: void with an amount', async () => {
    const o = await approved('preauth');
    const fields = {
      login: h.login,
      client_orderid: o.client_orderid,
      orderid: o.orderid,
      amount: '1.00',
    };
    const r = await postForm(`${h.base}/api/v2/void/${h.endpointId}`, {
      ...fields,
      control: control(h, 'void', fields),
    });
    assert.equal(r.status, 400);
    assert.match(r.body['error-message']!, /^amount: void never takes an amount/);
  });
  test('refused: void of a settled sale, and a second void', async () => {
    assert.match((await run('void', await approved('sale'))).refused ?? '', /settled/);
    const o = await approved('preauth');
    await run('void', o);
    assert.match((await run('void', o)).refused ?? '', /already voided/);
  });
});

describe('rule 5: partial capture and return never exceed the hold or what was settled', () => {
  test('allowed: partial capture, then partial returns up to the captured total', async () => {
    const o = await approved('preauth');
    assert.equal((await run('capture', o, ['6.00', 'EUR'])).final?.raw.amount, '6.00');
    assert.equal((await run('return', o, ['2.50', 'EUR'])).final?.raw.amount, '2.50');
    assert.equal((await run('return', o, ['3.50', 'EUR'])).final?.status, 'approved');
    assert.match((await run('return', o, ['0.01', 'EUR'])).refused ?? '', /returned in full/);
  });
  test('refused: capture above the hold, return above what remains, wrong currency', async () => {
    const o = await approved('preauth');
    assert.match(
      (await run('capture', o, ['10.43', 'EUR'])).refused ?? '',
      /exceeds the amount held/,
    );
    assert.match((await run('capture', o, ['1.00', 'USD'])).refused ?? '', /does not match/);
    const s = await approved('sale');
    await run('return', s, ['10.00', 'EUR']);
    assert.match((await run('return', s, ['0.43', 'EUR'])).refused ?? '', /exceeds what remains/);
    assert.equal((await run('return', s, ['0.42', 'EUR'])).final?.status, 'approved');
  });
});

describe('rule 6: the outcome of a sale comes through status (and callbacks)', () => {
  test('allowed: status reads the outcome; refused: status of another merchant order id', async () => {
    const o = await approved('sale');
    const r = await h.client.status(o);
    assert.equal(r.status, 'approved');
    const fields = { login: h.login, client_orderid: o.client_orderid, orderid: '1' };
    const bad = await postForm(`${h.base}/api/v2/status/${h.endpointId}`, {
      ...fields,
      control: control(h, 'status', fields),
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body['error-message']!, /orderid/);
  });
});

describe('rule 7: 3DS order of steps', () => {
  test('refused: a PaRes for a 3DS 2 order waiting on its method result', async () => {
    const request = saleRequest(TEST_CARDS.find((c) => c.scenario === '3ds2-challenge')!.pan);
    const ack = await h.client.sale(request);
    await waitForStatus(h, request.client_orderid, ack.orderId!, (r) =>
      Boolean(r.raw['three-ds-server-trans-id']),
    );
    await assert.rejects(
      h.client.uploadParesResult({
        orderid: ack.orderId!,
        'client-order-id': request.client_orderid,
        paRes: 'AAAA',
      }),
      /3DS Method result must be uploaded first/,
    );
  });
});
