import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import request from 'supertest';
import {
  FaultSettingsError,
  Faults,
  parseFaultHeader,
  validateFaults,
} from '../../../server/src/sandbox/faults.js';
import { createSandboxApp, DEV_MERCHANT } from '../../../server/src/sandbox/index.js';
import { computeControl } from '../../../server/src/signing/index.js';
import { saleRequest } from './helpers.js';

/** A random source that plays back the given values in a loop. */
const script = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length] ?? 0;
};

describe('fault rules', () => {
  test('a rate fires for exactly the draws below it', () => {
    const faults = new Faults({}, script(0.1, 0.49, 0.5, 0.9));
    assert.deepEqual(
      [1, 2, 3, 4].map(() => faults.roll(0.5)),
      [true, true, false, false],
    );
    assert.equal(faults.roll(0), false);
    assert.equal(faults.roll(undefined), false);
  });

  test('endpoint settings override "*", and a request header overrides both', () => {
    const faults = new Faults({
      '*': { latencyMs: 10, errorRate: 0.2 },
      '1111': { errorRate: 0.5 },
    });
    assert.deepEqual(faults.settingsFor('1111'), { latencyMs: 10, errorRate: 0.5 });
    assert.deepEqual(faults.settingsFor('2222'), { latencyMs: 10, errorRate: 0.2 });
    assert.deepEqual(faults.settingsFor('1111', 'drop, latency=300'), {
      latencyMs: 300,
      errorRate: 0.5,
      dropRate: 1,
    });
  });

  test('the header names every switch; settings outside their range are refused', () => {
    assert.deepEqual(
      parseFaultHeader('5xx, duplicate-callbacks, out-of-order-callbacks, lost-callbacks'),
      {
        errorRate: 1,
        duplicateCallbacks: true,
        outOfOrderCallbacks: true,
        lostCallbacks: true,
      },
    );
    for (const bad of [
      { errorRate: 1.5 },
      { dropRate: -0.1 },
      { errorRate: '0.5' },
      { lostCallbacks: 'yes' },
      null,
    ]) {
      assert.throws(() => validateFaults(bad), FaultSettingsError, JSON.stringify(bad));
    }
  });
});

describe('a share of calls fails', () => {
  test('errorRate: the unlucky call is a 500 that changes nothing; the retry goes through', async () => {
    const sb = await createSandboxApp({
      processingDelayMs: 5,
      faults: { '*': { errorRate: 0.5 } },
      // One draw per call: the sale fails, the status and the retried sale do not.
      random: script(0.2, 0.8, 0.8),
    });
    try {
      const { endpointId, controlKey } = DEV_MERCHANT;
      const sale = saleRequest('4000000000000002');
      const send = () =>
        request(sb.app)
          .post(`/paynet/api/v2/sale/${endpointId}`)
          .set('Accept', 'application/vnd.pay+json')
          .type('form')
          .send({ ...sale, control: computeControl('sale', { endpointId, ...sale }, controlKey) });
      const failed = await send();
      assert.equal(failed.status, 500);
      assert.equal(JSON.parse(failed.text).type, 'error');
      // The failed call left nothing behind: the gateway knows no such order.
      const fields = { login: DEV_MERCHANT.login, client_orderid: sale.client_orderid };
      const status = await request(sb.app)
        .post(`/paynet/api/v2/status/${endpointId}`)
        .set('Accept', 'application/vnd.pay+json')
        .type('form')
        .send({ ...fields, control: computeControl('status', fields, controlKey) });
      assert.equal(status.status, 400);
      assert.equal(JSON.parse(status.text)['error-code'], 'unknown-order');
      const accepted = await send();
      assert.equal(accepted.status, 200);
      assert.equal(JSON.parse(accepted.text).type, 'async-response');
    } finally {
      await sb.close();
    }
  });
});

describe('lost callbacks', () => {
  test('lostCallbacks: the sale ends approved, and no callback is queued for it', async () => {
    const sb = await createSandboxApp({
      processingDelayMs: 5,
      faults: { '*': { lostCallbacks: true } },
    });
    try {
      const { endpointId, controlKey } = DEV_MERCHANT;
      const sale = saleRequest('4000000000000002', undefined, {
        server_callback_url: 'http://127.0.0.1:9/callback',
      });
      const sent = await request(sb.app)
        .post(`/paynet/api/v2/sale/${endpointId}`)
        .set('Accept', 'application/vnd.pay+json')
        .type('form')
        .send({ ...sale, control: computeControl('sale', { endpointId, ...sale }, controlKey) });
      const orderid = String(JSON.parse(sent.text)['paynet-order-id']);
      const fields = { login: DEV_MERCHANT.login, client_orderid: sale.client_orderid, orderid };
      const status = async () =>
        JSON.parse(
          (
            await request(sb.app)
              .post(`/paynet/api/v2/status/${endpointId}`)
              .set('Accept', 'application/vnd.pay+json')
              .type('form')
              .send({ ...fields, control: computeControl('status', fields, controlKey) })
          ).text,
        ).status as string;
      let now = await status();
      for (let i = 0; i < 200 && now === 'processing'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        now = await status();
      }
      assert.equal(now, 'approved');
      await sb.idle();
      assert.deepEqual(await sb.sandbox.callbacks.list(orderid), []);
    } finally {
      await sb.close();
    }
  });
});
