/** Pure parts: the 3DS next-action mapping, threeDSMethodData, the return page, logger redaction. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { isSafeUrl } from '../../../contract/safe-url.js';
import {
  mapStatusToAction,
  threeDsMethodData,
} from '../../../server/src/checkout/following/next-action.js';
import { en } from '../../../server/src/checkout/http/page-words/en.js';
import {
  RETURN_SCRIPT_HASH,
  renderReturnPage,
} from '../../../server/src/checkout/http/return-page/page.js';
import { createLogger } from '../../../server/src/checkout/logger.js';
import {
  signWebhook,
  verifyWebhook,
} from '../../../server/src/checkout/webhooks/webhook-signature.js';

const ctx = {
  returnUrl: 'https://pay.example/return/REF',
  gatewayPageUrl: 'https://pay.example/gateway-page/REF',
  methodDone: false,
  // A gateway on loopback (the sandbox): http to this machine passes, as before the rule.
  isBankUrl: (url: unknown): url is string => isSafeUrl(url),
};
const WAIT = { action: 'wait', retryAfterMs: 1000 };

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
        next: {
          action: 'method',
          methodUrl: 'https://acs/m',
          methodData: threeDsMethodData('t', ctx.returnUrl),
          timeoutMs: 10_000,
        },
      },
    );
    assert.deepEqual(mapStatusToAction({ status: 'processing', threeDsServerTransId: 't' }, ctx), {
      next: { action: 'method', timeoutMs: 10_000 },
    });
    assert.deepEqual(
      mapStatusToAction(
        { status: 'processing', threeDsServerTransId: 't' },
        { ...ctx, methodDone: true },
      ),
      { next: WAIT },
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
        next: {
          action: 'challenge',
          acsUrl: 'https://acs/c',
          creq: 'CR',
          challengeWindowSize: '05',
        },
      },
    );
    assert.deepEqual(
      mapStatusToAction(
        { status: 'processing', acsUrl: 'https://acs/1', pareq: 'PR', md: 'MD' },
        ctx,
      ),
      {
        next: {
          action: '3ds1',
          acsUrl: 'https://acs/1',
          paReq: 'PR',
          md: 'MD',
          termUrl: ctx.returnUrl,
        },
      },
    );
    // The widget gets our page's address; the markup stays on the order for that page.
    assert.deepEqual(mapStatusToAction({ status: 'processing', html: '<form></form>' }, ctx), {
      next: { action: 'html', url: ctx.gatewayPageUrl, html: '<form></form>' },
    });
    assert.deepEqual(
      mapStatusToAction({ status: 'processing', redirectTo: 'https://gw/3ds' }, ctx),
      { next: { action: 'redirect', url: 'https://gw/3ds' } },
    );
    assert.deepEqual(mapStatusToAction({ status: 'approved', acsUrl: 'x', creq: 'y' }, ctx), {
      next: { action: 'final' },
    });
    assert.deepEqual(mapStatusToAction({ status: 'unknown' }, ctx), { next: WAIT });
  });

  it('refuses a gateway URL that is not https (or http to loopback): the order waits', () => {
    const refusals: [Parameters<typeof mapStatusToAction>[0], string, string][] = [
      [
        { status: 'processing', acsUrl: 'javascript:alert(1)//', creq: 'CR' },
        'acs-url',
        'javascript:alert(1)//',
      ],
      [
        { status: 'processing', acsUrl: 'http://acs.example/1', pareq: 'PR', md: 'MD' },
        'acs-url',
        'http://acs.example/1',
      ],
      [
        {
          status: 'processing',
          threeDsServerTransId: 't',
          threeDsMethodUrl: 'data:text/html,<script>alert(1)</script>',
        },
        'three-ds-method-url',
        'data:text/html,<script>alert(1)</script>',
      ],
      [
        { status: 'processing', redirectTo: 'JavaScript:alert(1)' },
        'redirect-to',
        'JavaScript:alert(1)',
      ],
      [
        { status: 'processing', redirectTo: 'http://evil.example/' },
        'redirect-to',
        'http://evil.example/',
      ],
      [{ status: 'processing', redirectTo: '/relative' }, 'redirect-to', '/relative'],
    ];
    for (const [fields, field, url] of refusals) {
      assert.deepEqual(mapStatusToAction(fields, ctx), { next: WAIT, refused: { field, url } });
    }
    // The sandbox's ACS on loopback passes.
    assert.deepEqual(
      mapStatusToAction(
        { status: 'processing', acsUrl: 'http://127.0.0.1:4010/acs', creq: 'CR' },
        ctx,
      ).next,
      {
        action: 'challenge',
        acsUrl: 'http://127.0.0.1:4010/acs',
        creq: 'CR',
        challengeWindowSize: '02',
      },
    );
    // A final status is final whatever URLs ride along.
    assert.deepEqual(
      mapStatusToAction({ status: 'declined', acsUrl: 'javascript:x', creq: 'y' }, ctx),
      { next: { action: 'final' } },
    );
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
      language: { lang: 'en', dir: 'ltr', words: { ...en, finished: '<b>hi</b>' } },
      text: 'finished',
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

/** A logger at `info` whose lines land in `lines`. */
function captureLogger() {
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
  return { lines, logger };
}

describe('logger redaction', () => {
  it('censors card data and secrets at any depth, in messages and errors', () => {
    const { lines, logger } = captureLogger();
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
        short: 'a 12-digit card 500000000009',
        status: { 'card-exp-month': '12', 'card-exp-year': '2031' },
      },
      'paths',
    );
    // Without pino's millisecond timestamp: its 13 digits hold "737" or "2031" now and then.
    const text = lines.map((line) => line.replace(/"time":\d+,/, '')).join('');
    for (const secret of ['mk_live_x', 'jw_live_x', 'ck_live_x', 'hd_live_x', '5555555555554444']) {
      assert.ok(!text.includes(secret), secret);
    }
    assert.ok(!text.includes('4000000000000002'));
    assert.ok(!text.includes('4111111111111111'));
    assert.ok(!text.includes('4111 1111 1111 1111'));
    assert.ok(!text.includes('4111-1111-1111-1111'));
    assert.ok(!text.includes('737'));
    assert.ok(!text.includes('500000000009'));
    assert.ok(!text.includes('2031'));
    assert.ok(!text.includes('sk_live_x'));
    assert.ok(text.includes('HTTP 503'));
  });

  it('keeps an id that holds 12 dashed digits whole, and still censors a card number beside it', () => {
    const { lines, logger } = captureLogger();
    // 5533-4311-9065-9 is 13 digits in a row: once cut out, which order a line was about was lost.
    const id = 'd13479af-5533-4311-9065-9c77950a7b5e';
    logger.error({ orderId: id, note: `${id} paid with 4111 1111 1111 1111` }, `order ${id}`);
    const line = JSON.parse(lines.join(''));
    assert.equal(line.orderId, id);
    assert.equal(line.msg, `order ${id}`);
    assert.equal(line.note, `${id} paid with [redacted]`);
  });
});

describe('webhook signature', () => {
  it('signs the timestamp with the body and refuses stale or altered events', () => {
    const header = signWebhook('s3cret-s3cret-s3cret', '{"a":1}', 1_700_000_000);
    assert.match(header, /^t=1700000000,v1=[0-9a-f]{64}$/);
    const at = (nowSeconds: number) => ({ nowSeconds });
    assert.ok(verifyWebhook('{"a":1}', header, 's3cret-s3cret-s3cret', at(1_700_000_100)));
    assert.ok(!verifyWebhook('{"a":2}', header, 's3cret-s3cret-s3cret', at(1_700_000_100)));
    assert.ok(!verifyWebhook('{"a":1}', header, 's3cret-s3cret-s3cret', at(1_700_001_000)));
  });
});
