/** Pure parts: the 3DS next-action mapping, threeDSMethodData, the return page, logger redaction. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { createLogger } from '../../../server/src/checkout/logger.js';
import {
  mapStatusToAction,
  threeDsMethodData,
} from '../../../server/src/checkout/payments/next-action.js';
import {
  RETURN_SCRIPT_HASH,
  renderReturnPage,
} from '../../../server/src/checkout/return-page/page.js';
import { signWebhook, verifyWebhook } from '../../../server/src/checkout/webhook-signature.js';

const ctx = { returnUrl: 'https://pay.example/return/REF', methodDone: false };

describe('3DS next action', () => {
  it('threeDSMethodData matches the known-answer vector (base64url, no padding)', () => {
    assert.equal(
      threeDsMethodData(
        '3d671629-a410-4a5d-9288-b38ceadd41f2',
        'https://merchant.com/3ds-method-complete/',
      ),
      'eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6IjNkNjcxNjI5LWE0MTAtNGE1ZC05Mjg4LWIzOGNlYWRkNDFmMiIsInRocmVlRFNNZXRob2ROb3RpZmljYXRpb25VUkwiOiJodHRwczovL21lcmNoYW50LmNvbS8zZHMtbWV0aG9kLWNvbXBsZXRlLyJ9',
    );
  });

  it('maps each status response to its action', () => {
    assert.deepEqual(
      mapStatusToAction(
        { status: 'processing', threeDsServerTransId: 't', threeDsMethodUrl: 'https://acs/m' },
        ctx,
      ),
      {
        action: 'method',
        methodUrl: 'https://acs/m',
        methodData: threeDsMethodData('t', ctx.returnUrl),
        timeoutMs: 10_000,
      },
    );
    assert.deepEqual(mapStatusToAction({ status: 'processing', threeDsServerTransId: 't' }, ctx), {
      action: 'method',
      timeoutMs: 10_000,
    });
    assert.deepEqual(
      mapStatusToAction(
        { status: 'processing', threeDsServerTransId: 't' },
        { ...ctx, methodDone: true },
      ),
      { action: 'wait', retryAfterMs: 1000 },
    );
    assert.deepEqual(
      mapStatusToAction(
        {
          status: 'processing',
          threeDsServerTransId: 't',
          acsUrl: 'https://acs/c',
          creq: 'CR',
          challengeWindowSize: '05',
        },
        ctx,
      ),
      {
        action: 'challenge',
        acsUrl: 'https://acs/c',
        creq: 'CR',
        challengeWindowSize: '05',
      },
    );
    assert.deepEqual(
      mapStatusToAction(
        { status: 'processing', acsUrl: 'https://acs/1', pareq: 'PR', md: 'MD' },
        ctx,
      ),
      {
        action: '3ds1',
        acsUrl: 'https://acs/1',
        paReq: 'PR',
        md: 'MD',
        termUrl: ctx.returnUrl,
      },
    );
    assert.deepEqual(mapStatusToAction({ status: 'processing', html: '<form></form>' }, ctx), {
      action: 'html',
      html: '<form></form>',
    });
    assert.deepEqual(
      mapStatusToAction({ status: 'processing', redirectTo: 'https://gw/3ds' }, ctx),
      { action: 'redirect', url: 'https://gw/3ds' },
    );
    assert.deepEqual(mapStatusToAction({ status: 'approved', acsUrl: 'x', creq: 'y' }, ctx), {
      action: 'final',
    });
    assert.deepEqual(mapStatusToAction({ status: 'unknown' }, ctx), {
      action: 'wait',
      retryAfterMs: 1000,
    });
  });
});

describe('return page', () => {
  it('allows its one script by hash and cannot be broken out of', () => {
    const html = renderReturnPage({
      message: {
        source: 'pay-checkout',
        type: 'final',
        orderId: '</script><script>alert(1)</script>',
      },
      origin: 'https://shop.example',
      returnUrl: null,
      text: '<b>hi</b>',
    });
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    assert.equal(scripts.length, 1);
    assert.equal(
      `sha256-${createHash('sha256')
        .update(scripts[0] ?? '')
        .digest('base64')}`,
      RETURN_SCRIPT_HASH,
    );
    assert.ok(!html.includes('</script><script>alert(1)'));
    assert.ok(html.includes('&#60;b&#62;hi&#60;/b&#62;'));
  });
});

describe('logger redaction', () => {
  it('censors card data and secrets at any depth, in messages and errors', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      destination: new Writable({
        write(chunk, _e, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    });
    logger.info(
      {
        body: { card: { number: '4111111111111111', cvc: '737' } },
        deep: { a: { cvv2: '737', note: 'pan 4111 1111 1111 1111' } },
        req: { headers: { authorization: 'Bearer sk_live_x' } },
      },
      'paying with 4111111111111111',
    );
    logger.error({ err: new Error('declined card 4111-1111-1111-1111') }, 'failed');
    logger.warn({ error: 'HTTP 503' }, 'plain value');
    // The places pino `redact` paths used to cover: the formatter alone must catch them.
    logger.info(
      {
        config: { merchantApiKey: 'mk_live_x', jwtSecret: 'jw_live_x' },
        req: { headers: { cookie: 'sid=ck_live_x' } },
        headers: { authorization: 'Bearer hd_live_x' },
        request: {
          credit_card_number: '5555555555554444',
          cvv2: '737',
          ref: 'card_4000000000000002',
        },
      },
      'paths',
    );
    const text = lines.join('');
    for (const secret of ['mk_live_x', 'jw_live_x', 'ck_live_x', 'hd_live_x', '5555555555554444']) {
      assert.ok(!text.includes(secret), secret);
    }
    assert.ok(!text.includes('4000000000000002'));
    assert.ok(!text.includes('4111111111111111'));
    assert.ok(!text.includes('4111 1111 1111 1111'));
    assert.ok(!text.includes('4111-1111-1111-1111'));
    assert.ok(!text.includes('737'));
    assert.ok(!text.includes('sk_live_x'));
    assert.ok(text.includes('HTTP 503'));
  });
});

describe('webhook signature', () => {
  it('signs the timestamp with the body and refuses stale or altered events', () => {
    const header = signWebhook('s3cret-s3cret-s3cret', '{"a":1}', 1_700_000_000);
    assert.match(header, /^t=1700000000,v1=[0-9a-f]{64}$/);
    assert.ok(verifyWebhook('s3cret-s3cret-s3cret', '{"a":1}', header, 1_700_000_100));
    assert.ok(!verifyWebhook('s3cret-s3cret-s3cret', '{"a":2}', header, 1_700_000_100));
    assert.ok(!verifyWebhook('s3cret-s3cret-s3cret', '{"a":1}', header, 1_700_001_000));
  });
});
