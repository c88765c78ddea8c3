/**
 * http: to loopback from the gateway only while the gateway is itself on loopback (the sandbox):
 * a real https gateway's answer naming `http://127.0.0.1/...` is refused, and the launcher and
 * gateway pages' policies allow https only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mapStatusToAction } from '../../../../server/src/checkout/following/next-action.js';
import {
  bankSources,
  gatewayOnLoopback,
  isBankUrl,
} from '../../../../server/src/checkout/payments/bank-urls.js';

const REAL = {
  gateway: { url: 'https://gate.example.com/paynet', endpointId: '1', login: 'l', controlKey: 'k' },
};
const SANDBOX = { gateway: { ...REAL.gateway, url: 'http://127.0.0.1:4000/paynet' } };

describe('bank URLs', () => {
  it('a real gateway: https only; the sandbox: http to this machine too', () => {
    assert.deepEqual([gatewayOnLoopback(REAL), gatewayOnLoopback(SANDBOX)], [false, true]);
    for (const url of ['http://127.0.0.1:4000/acs', 'http://localhost/acs', 'http://[::1]/acs']) {
      assert.equal(isBankUrl(REAL, url), false, url);
      assert.equal(isBankUrl(SANDBOX, url), true, url);
    }
    assert.equal(isBankUrl(REAL, 'https://acs.bank.example/creq'), true);
    assert.equal(isBankUrl(SANDBOX, 'http://bank.example/creq'), false);
    assert.equal(bankSources(REAL), 'https:');
    assert.equal(bankSources(SANDBOX), 'https: http://127.0.0.1:* http://localhost:*');
  });

  it("a real gateway's challenge on http://127.0.0.1 is refused: the order waits", () => {
    const mapped = mapStatusToAction(
      { status: 'processing', acsUrl: 'http://127.0.0.1:8080/acs', creq: 'Y3JlcQ' },
      {
        returnUrl: 'https://pay.example/return/REF',
        gatewayPageUrl: 'https://pay.example/gateway-page/REF',
        methodDone: true,
        isBankUrl: (url: unknown) => isBankUrl(REAL, url),
      },
    );
    assert.equal(mapped.next.action, 'wait');
    assert.deepEqual(mapped.refused, { field: 'acs-url', url: 'http://127.0.0.1:8080/acs' });
  });
});
