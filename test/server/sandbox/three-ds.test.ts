import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayValidationError } from '../../../server/src/gateway/index.js';
import { manualClock, TEST_CARDS } from '../../../server/src/sandbox/index.js';
import {
  BROWSER,
  browserPost,
  decodeB64Json,
  type Harness,
  REDIRECT,
  readForm,
  saleRequest,
  startSandbox,
  waitForStatus,
} from './helpers.js';

const pan = (scenario: string) => TEST_CARDS.find((c) => c.scenario === scenario)!.pan;
const NOTIFY = 'https://shop.example/3ds/method-notification/abc';

let h: Harness;
before(async () => {
  h = await startSandbox();
});
after(() => h.close());

async function startThreeDs(scenario: string) {
  const request = saleRequest(pan(scenario));
  const ack = await h.client.sale(request);
  const orderid = ack.orderId!;
  const status = await waitForStatus(h, request.client_orderid, orderid, (r) =>
    Boolean(r.raw['three-ds-server-trans-id'] || r.raw['acs-url'] || r.status !== 'processing'),
  );
  return { request, orderid, clientOrderId: request.client_orderid, status };
}

const methodUpload = (
  o: { orderid: string; clientOrderId: string },
  transId: string,
  compInd: 'Y' | 'N' | 'U',
  extra: Record<string, string> = {},
) =>
  h.client.uploadMethodUrlResult({
    orderid: o.orderid,
    'client-order-id': o.clientOrderId,
    threeDSServerTransID: transId,
    ...BROWSER,
    threeDSCompInd: compInd,
    ...extra,
  });

async function runMethodPage(methodUrl: string, transId: string) {
  const data = Buffer.from(
    JSON.stringify({ threeDSServerTransID: transId, threeDSMethodNotificationURL: NOTIFY }),
  ).toString('base64url');
  return browserPost(methodUrl, { threeDSMethodData: data });
}

async function completeChallenge(acsUrl: string, creq: string, otp: string, action = 'submit') {
  const page = await browserPost(acsUrl, { creq, threeDSSessionData: 'session-42' });
  assert.equal(page.status, 200);
  const form = readForm(page.html);
  const result = await browserPost(new URL(form.action, acsUrl).href, {
    ...form.fields,
    otp,
    action,
  });
  return { page, result: readForm(result.html) };
}

describe('3DS 2.x challenge (3ds2-challenge)', () => {
  test('method, method upload, challenge page, CRes upload: approved', async () => {
    const o = await startThreeDs('3ds2-challenge');
    const transId = o.status.raw['three-ds-server-trans-id']!;
    assert.equal(o.status.status, 'processing');
    assert.match(transId, /^[0-9a-f-]{36}$/);
    assert.equal(o.status.raw['three-ds-method-url'], `${h.base}/acs/3ds-method`);
    assert.equal(o.status.raw['acs-url'], undefined);

    // The method page, inside the merchant's hidden iframe, notifies the notification URL.
    const method = await runMethodPage(o.status.raw['three-ds-method-url']!, transId);
    assert.equal(method.status, 200);
    assert.equal(method.headers.get('x-frame-options'), null);
    // Frameable by the merchant's page (by default: pages on this machine), no other site.
    assert.match(
      method.headers.get('content-security-policy') ?? '',
      /; frame-ancestors 'self' http:\/\/localhost:\* http:\/\/127\.0\.0\.1:\* http:\/\/\[::1\]:\*$/,
    );
    const notify = readForm(method.html);
    assert.equal(notify.action, NOTIFY);
    assert.deepEqual(decodeB64Json(notify.fields.threeDSMethodData!), {
      threeDSServerTransID: transId,
    });
    assert.match(method.html, /<script nonce="[^"]+">/);

    // CRes before the method result: refused, nothing changes.
    await assert.rejects(
      h.client.uploadCresResult({
        orderid: o.orderid,
        'client-order-id': o.clientOrderId,
        cres: 'eyJ9',
      }),
      GatewayValidationError,
    );

    const ack = await methodUpload(o, transId, 'Y');
    assert.equal(ack.status, 'processing');
    // The method result twice: refused.
    await assert.rejects(methodUpload(o, transId, 'Y'), /already being processed|challenge/);

    const challenge = await waitForStatus(h, o.clientOrderId, o.orderid, (r) =>
      Boolean(r.raw['acs-url']),
    );
    assert.equal(challenge.status, 'processing');
    assert.equal(challenge.raw['acs-url'], `${h.base}/acs/challenge`);
    assert.equal(challenge.raw['challenge-window-size'], '02');
    assert.equal(challenge.raw['three-ds-server-trans-id'], transId);
    const creq = decodeB64Json(challenge.raw.creq!);
    assert.equal(creq.threeDSServerTransID, transId);
    assert.equal(creq.messageType, 'CReq');
    assert.equal(creq.messageVersion, '2.2.0');
    assert.equal(creq.challengeWindowSize, '02');
    assert.match(String(creq.acsTransID), /^[0-9a-f-]{36}$/);

    // A CRes before the shopper finished the challenge: refused.
    await assert.rejects(
      h.client.uploadCresResult({
        orderid: o.orderid,
        'client-order-id': o.clientOrderId,
        cres: challenge.raw.creq!,
      }),
      GatewayValidationError,
    );

    const { page, result } = await completeChallenge(
      challenge.raw['acs-url']!,
      challenge.raw.creq!,
      '1234',
    );
    assert.match(page.html, /<label for="otp">One-time code<\/label>/);
    assert.match(page.html, /<button type="submit" name="action" value="submit">Submit<\/button>/);
    assert.match(page.html, />Cancel<\/button>/);
    assert.equal(page.headers.get('x-frame-options'), null);
    assert.equal(result.action, REDIRECT);
    assert.equal(result.fields.threeDSSessionData, 'session-42');
    const cres = decodeB64Json(result.fields.cres!);
    assert.equal(cres.transStatus, 'Y');
    assert.equal(cres.messageType, 'CRes');
    assert.equal(cres.acsTransID, creq.acsTransID);

    await h.client.uploadCresResult({
      orderid: o.orderid,
      'client-order-id': o.clientOrderId,
      cres: result.fields.cres!,
    });
    // Twice: refused.
    await assert.rejects(
      h.client.uploadCresResult({
        orderid: o.orderid,
        'client-order-id': o.clientOrderId,
        cres: result.fields.cres!,
      }),
      GatewayValidationError,
    );
    const final = await waitForStatus(h, o.clientOrderId, o.orderid);
    assert.equal(final.status, 'approved');
    assert.equal(final.raw['acs-url'], undefined);
    // After a final status: refused.
    await assert.rejects(
      h.client.uploadCresResult({
        orderid: o.orderid,
        'client-order-id': o.clientOrderId,
        cres: result.fields.cres!,
      }),
      /already final \(approved\)/,
    );
  });

  for (const [otp, action] of [
    ['0000', 'submit'],
    ['1234', 'cancel'],
  ] as const) {
    test(`${action === 'cancel' ? 'Cancel' : 'a wrong code'}: CRes N, declined`, async () => {
      const o = await startThreeDs('3ds2-challenge');
      const transId = o.status.raw['three-ds-server-trans-id']!;
      await runMethodPage(o.status.raw['three-ds-method-url']!, transId);
      await methodUpload(o, transId, 'Y');
      const c = await waitForStatus(h, o.clientOrderId, o.orderid, (r) =>
        Boolean(r.raw['acs-url']),
      );
      const { result } = await completeChallenge(c.raw['acs-url']!, c.raw.creq!, otp, action);
      assert.equal(decodeB64Json(result.fields.cres!).transStatus, 'N');
      await h.client.uploadCresResult({
        orderid: o.orderid,
        'client-order-id': o.clientOrderId,
        cres: result.fields.cres!,
      });
      const final = await waitForStatus(h, o.clientOrderId, o.orderid);
      assert.equal(final.status, 'declined');
      assert.equal(final.raw['error-code'], '3DS-FAILED');
    });
  }

  test('a CRes of another order, or a forged transStatus: refused', async () => {
    const a = await startThreeDs('3ds2-challenge-no-method');
    const b = await startThreeDs('3ds2-challenge-no-method');
    for (const o of [a, b]) await methodUpload(o, o.status.raw['three-ds-server-trans-id']!, 'U');
    const ca = await waitForStatus(h, a.clientOrderId, a.orderid, (r) => Boolean(r.raw['acs-url']));
    const cb = await waitForStatus(h, b.clientOrderId, b.orderid, (r) => Boolean(r.raw['acs-url']));
    const { result } = await completeChallenge(ca.raw['acs-url']!, ca.raw.creq!, '0000');
    await completeChallenge(cb.raw['acs-url']!, cb.raw.creq!, '0000');
    await assert.rejects(
      h.client.uploadCresResult({
        orderid: b.orderid,
        'client-order-id': b.clientOrderId,
        cres: result.fields.cres!,
      }),
      /not a CRes of order/,
    );
    const forged = Buffer.from(
      JSON.stringify({ ...decodeB64Json(result.fields.cres!), transStatus: 'Y' }),
    ).toString('base64url');
    await assert.rejects(
      h.client.uploadCresResult({
        orderid: a.orderid,
        'client-order-id': a.clientOrderId,
        cres: forged,
      }),
      /does not match what the ACS issued/,
    );
    const still = await h.client.status({ client_orderid: a.clientOrderId, orderid: a.orderid });
    assert.equal(still.status, 'processing');
    assert.ok(still.raw['acs-url']);
  });
});

describe('3DS 2.x other scenarios', () => {
  test('3ds2-frictionless: method Y, approved without a challenge', async () => {
    const o = await startThreeDs('3ds2-frictionless');
    const transId = o.status.raw['three-ds-server-trans-id']!;
    const method = await runMethodPage(o.status.raw['three-ds-method-url']!, transId);
    assert.equal(readForm(method.html).action, NOTIFY);
    await methodUpload(o, transId, 'Y');
    const final = await waitForStatus(h, o.clientOrderId, o.orderid);
    assert.equal(final.status, 'approved');
  });

  test('3ds2-challenge-no-method: no method URL; Y refused, U accepted, then a challenge', async () => {
    const o = await startThreeDs('3ds2-challenge-no-method');
    const transId = o.status.raw['three-ds-server-trans-id']!;
    assert.equal(o.status.raw['three-ds-method-url'], undefined);
    await assert.rejects(methodUpload(o, transId, 'Y'), /threeDSCompInd/);
    await methodUpload(o, transId, 'U');
    const c = await waitForStatus(h, o.clientOrderId, o.orderid, (r) => Boolean(r.raw['acs-url']));
    const { result } = await completeChallenge(c.raw['acs-url']!, c.raw.creq!, '1234');
    await h.client.uploadCresResult({
      orderid: o.orderid,
      'client-order-id': o.clientOrderId,
      cres: result.fields.cres!,
    });
    assert.equal((await waitForStatus(h, o.clientOrderId, o.orderid)).status, 'approved');
  });

  test('3ds2-method-timeout: the method page never notifies; N accepted, approved', async () => {
    const o = await startThreeDs('3ds2-method-timeout');
    const transId = o.status.raw['three-ds-server-trans-id']!;
    const method = await runMethodPage(o.status.raw['three-ds-method-url']!, transId);
    assert.equal(method.status, 200);
    assert.doesNotMatch(method.html, /<form/);
    await assert.rejects(methodUpload(o, transId, 'Y'), /never completed/);
    await methodUpload(o, transId, 'N');
    assert.equal((await waitForStatus(h, o.clientOrderId, o.orderid)).status, 'approved');
  });

  for (const [field, value] of [
    ['browserColorDepth', '30'],
    ['browserScreenWidth', 'wide'],
    ['browserTZ', '-60000'],
    ['browserLanguage', 'en-GB-oxendict'],
    ['browserJavaEnabled', 'yes'],
    ['challengeWindowSize', '06'],
    ['threeDSCompInd', 'X'],
    ['threeDSServerTransID', 'not-a-uuid'],
  ] as const) {
    test(`method upload with ${field}=${value}: 400 naming it, state unchanged`, async () => {
      const o = await startThreeDs('3ds2-frictionless');
      const transId = o.status.raw['three-ds-server-trans-id']!;
      await assert.rejects(
        methodUpload(o, transId, 'Y', { [field]: value }),
        (error: unknown) =>
          error instanceof GatewayValidationError &&
          (error.errorMessage ?? '').startsWith(`${field}:`),
      );
      const still = await h.client.status({ client_orderid: o.clientOrderId, orderid: o.orderid });
      assert.equal(still.raw['three-ds-server-trans-id'], transId);
    });
  }
});

describe('3DS 1.0.2 (3ds1)', () => {
  test('acs-url + pareq + md; the ACS posts PaRes + MD to TermUrl; upload: approved', async () => {
    const o = await startThreeDs('3ds1');
    assert.equal(o.status.raw['acs-url'], `${h.base}/acs/3ds1`);
    assert.ok(o.status.raw.pareq);
    assert.ok(o.status.raw.md);
    const page = await browserPost(o.status.raw['acs-url']!, {
      PaReq: o.status.raw.pareq!,
      MD: o.status.raw.md!,
      TermUrl: REDIRECT,
    });
    assert.match(page.html, /One-time code/);
    const form = readForm(page.html);
    const done = readForm(
      (
        await browserPost(new URL(form.action, h.base).href, {
          ...form.fields,
          otp: '1234',
          action: 'submit',
        })
      ).html,
    );
    assert.equal(done.action, REDIRECT);
    assert.equal(done.fields.MD, o.status.raw.md);
    await h.client.uploadParesResult({
      orderid: o.orderid,
      'client-order-id': o.clientOrderId,
      paRes: done.fields.PaRes!,
      md: done.fields.MD!,
    });
    assert.equal((await waitForStatus(h, o.clientOrderId, o.orderid)).status, 'approved');
    await assert.rejects(
      h.client.uploadParesResult({
        orderid: o.orderid,
        'client-order-id': o.clientOrderId,
        paRes: done.fields.PaRes!,
      }),
      GatewayValidationError,
    );
  });
});

describe('3DS expiry (manual clock)', () => {
  test('a challenge not completed in 10 minutes ends declined', async () => {
    const clock = manualClock();
    const m = await startSandbox({ clock, processingDelayMs: 100 });
    try {
      const request = saleRequest(pan('3ds2-challenge-no-method'));
      const ack = await m.client.sale(request);
      await clock.advance(100);
      const s1 = await m.client.status({
        client_orderid: request.client_orderid,
        orderid: ack.orderId!,
      });
      assert.equal(s1.status, 'processing');
      await m.client.uploadMethodUrlResult({
        orderid: ack.orderId!,
        'client-order-id': request.client_orderid,
        threeDSServerTransID: s1.raw['three-ds-server-trans-id']!,
        ...BROWSER,
        threeDSCompInd: 'U',
      });
      await clock.advance(100);
      const s2 = await m.client.status({
        client_orderid: request.client_orderid,
        orderid: ack.orderId!,
      });
      assert.ok(s2.raw['acs-url']);
      await clock.advance(9 * 60_000);
      const s3 = await m.client.status({
        client_orderid: request.client_orderid,
        orderid: ack.orderId!,
      });
      assert.equal(s3.status, 'processing');
      await clock.advance(60_000);
      const s4 = await m.client.status({
        client_orderid: request.client_orderid,
        orderid: ack.orderId!,
      });
      assert.equal(s4.status, 'declined');
      assert.equal(s4.raw['error-code'], '3DS-TIMEOUT');
    } finally {
      await m.close();
    }
  });
});
