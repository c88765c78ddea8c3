/**
 * Gateway-driven 3DS in the pure mapping (following/next-action.ts) and the flow's step keys
 * (following/flow-state.ts): the spec's `redirect_url`, the family's `redirect-to` and `html`,
 * from a status or from the sale answer; 3DS 1.0.2 without an MD.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSafeUrl } from '../../../../contract/safe-url.js';
import { challengeKey, sameAction } from '../../../../server/src/checkout/following/flow-state.js';
import {
  isGatewayPage,
  mapStatusToAction,
  type StoredAction,
  salePageOf,
  waitsOnBrowser,
} from '../../../../server/src/checkout/following/next-action.js';

const ctx = {
  returnUrl: 'https://pay.example/return/REF',
  gatewayPageUrl: 'https://pay.example/gateway-page/REF',
  methodDone: false,
  // A gateway on loopback (the sandbox): http to this machine passes, as before the rule.
  isBankUrl: (url: unknown): url is string => isSafeUrl(url),
};
const WAIT = { action: 'wait', retryAfterMs: 1000 };
const SALE_PAGE: StoredAction = { action: 'redirect', url: 'https://gw.example/3ds/1' };

describe('gateway-driven 3DS mapping', () => {
  it("the spec's redirect_url sends the shopper there", () => {
    assert.deepEqual(
      mapStatusToAction({ status: 'processing', redirectUrl: 'https://gw.example/3ds/1' }, ctx),
      { next: { action: 'redirect', url: 'https://gw.example/3ds/1' } },
    );
  });

  it('html before redirect-to before redirect_url, as the family reads them', () => {
    const all = {
      status: 'processing',
      html: '<form></form>',
      redirectTo: 'https://gw.example/to',
      redirectUrl: 'https://gw.example/url',
    };
    assert.deepEqual(mapStatusToAction(all, ctx).next, {
      action: 'html',
      url: ctx.gatewayPageUrl,
      html: '<form></form>',
    });
    assert.deepEqual(mapStatusToAction({ ...all, html: undefined }, ctx).next, {
      action: 'redirect',
      url: 'https://gw.example/to',
    });
  });

  it('a merchant-side step named beside a page comes first', () => {
    assert.equal(
      mapStatusToAction(
        { status: 'processing', acsUrl: 'https://acs/c', creq: 'CR', redirectUrl: 'https://gw/x' },
        ctx,
      ).next.action,
      'challenge',
    );
  });

  it('our own return page echoed as redirect_url is not a step', () => {
    assert.deepEqual(mapStatusToAction({ status: 'processing', redirectUrl: ctx.returnUrl }, ctx), {
      next: WAIT,
    });
    assert.deepEqual(salePageOf({ status: 'processing', redirectUrl: ctx.returnUrl }, ctx), {});
  });

  it('an unsafe redirect_url is refused by its field name; the order waits', () => {
    assert.deepEqual(
      mapStatusToAction({ status: 'processing', redirectUrl: 'http://evil.example/3ds' }, ctx),
      { next: WAIT, refused: { field: 'redirect-url', url: 'http://evil.example/3ds' } },
    );
    assert.deepEqual(salePageOf({ status: 'processing', redirectUrl: 'javascript:x' }, ctx), {
      refused: { field: 'redirect-url', url: 'javascript:x' },
    });
  });

  it("the sale's page stays the step while a status names none; any named step or a final wins", () => {
    const withSale = { ...ctx, salePage: SALE_PAGE };
    assert.deepEqual(mapStatusToAction({ status: 'processing' }, withSale), { next: SALE_PAGE });
    assert.deepEqual(mapStatusToAction({ status: 'unknown' }, withSale), { next: SALE_PAGE });
    assert.deepEqual(
      mapStatusToAction({ status: 'processing', redirectTo: 'https://gw.example/2' }, withSale),
      { next: { action: 'redirect', url: 'https://gw.example/2' } },
    );
    assert.deepEqual(mapStatusToAction({ status: 'approved' }, withSale), {
      next: { action: 'final' },
    });
  });

  it('the sale answer gives only a page: never a merchant-side step, never from a final answer', () => {
    assert.deepEqual(
      salePageOf({ status: 'processing', redirectUrl: 'https://gw.example/3ds/1' }, ctx),
      { page: SALE_PAGE },
    );
    assert.deepEqual(salePageOf({ status: 'processing', html: '<p>x</p>' }, ctx), {
      page: { action: 'html', url: ctx.gatewayPageUrl, html: '<p>x</p>' },
    });
    assert.deepEqual(
      salePageOf({ status: 'processing', acsUrl: 'https://acs/c', creq: 'CR' }, ctx),
      {},
    );
    assert.deepEqual(salePageOf({ status: 'declined', redirectUrl: 'https://gw/x' }, ctx), {});
    assert.deepEqual(salePageOf({ status: 'processing' }, ctx), {});
  });

  it('3DS 1.0.2 with an absent MD is a 1.0.2 step with an empty MD, not a wait', () => {
    assert.deepEqual(
      mapStatusToAction({ status: 'processing', acsUrl: 'https://acs/1', pareq: 'PR' }, ctx),
      {
        next: {
          action: '3ds1',
          acsUrl: 'https://acs/1',
          paReq: 'PR',
          md: '',
          termUrl: ctx.returnUrl,
        },
      },
    );
  });

  it('gateway pages are not browser steps, they are pages of the gateway', () => {
    assert.equal(waitsOnBrowser(SALE_PAGE), false);
    assert.equal(waitsOnBrowser({ action: 'html', url: 'u', html: 'h' }), false);
    assert.equal(isGatewayPage(SALE_PAGE), true);
    assert.equal(isGatewayPage({ action: 'html', url: 'u', html: 'h' }), true);
    assert.equal(isGatewayPage(WAIT as StoredAction), false);
    assert.equal(
      waitsOnBrowser({ action: 'challenge', acsUrl: 'a', creq: 'c', challengeWindowSize: '02' }),
      true,
    );
  });
});

describe('flow steps', () => {
  it('a page has a key of its own, so once left it is never shown again', () => {
    const keys = [
      challengeKey(SALE_PAGE),
      challengeKey({ action: 'redirect', url: 'https://gw.example/3ds/2' }),
      challengeKey({ action: 'html', url: 'u', html: 'https://gw.example/3ds/1' }),
    ];
    assert.equal(new Set(keys).size, 3);
    assert.ok(keys.every((k) => typeof k === 'string' && k.length === 22));
    assert.equal(challengeKey(WAIT as StoredAction), undefined);
  });

  it('the same step read back from the store, its fields reordered, is the same step', () => {
    const mapped: StoredAction = {
      action: 'challenge',
      acsUrl: 'https://acs/c',
      creq: 'CR',
      challengeWindowSize: '05',
    };
    const stored = JSON.parse(
      '{"creq":"CR","acsUrl":"https://acs/c","action":"challenge","challengeWindowSize":"05"}',
    ) as StoredAction;
    assert.equal(sameAction(mapped, stored), true);
    assert.equal(sameAction(mapped, { ...stored, creq: 'OTHER' } as StoredAction), false);
  });

  it("a challenge's window size is the CReq's (padded or not, either base64 alphabet), else the gateway's, else the browser's", () => {
    const creq = (size: unknown, encoding: BufferEncoding = 'base64url') =>
      Buffer.from(JSON.stringify({ messageType: 'CReq', challengeWindowSize: size })).toString(
        encoding,
      );
    const sizeOf = (fields: Record<string, unknown>, asked?: '01' | '05') => {
      const mapped = mapStatusToAction(
        { status: 'processing', acsUrl: 'https://acs/c', ...fields } as never,
        { ...ctx, challengeWindowSize: asked },
      ).next;
      assert.equal(mapped.action, 'challenge');
      return mapped.action === 'challenge' ? mapped.challengeWindowSize : undefined;
    };
    assert.equal(sizeOf({ creq: creq('04') }), '04');
    assert.equal(sizeOf({ creq: creq('04'), challengeWindowSize: '01' }), '04');
    assert.equal(sizeOf({ creq: creq('03', 'base64') }), '03');
    assert.equal(sizeOf({ creq: `${creq('01')}==` }), '01');
    assert.equal(sizeOf({ creq: creq('06'), challengeWindowSize: '01' }), '01');
    assert.equal(sizeOf({ creq: creq(2) }, '05'), '05');
    assert.equal(sizeOf({ creq: 'not base64 json' }, '05'), '05');
    assert.equal(sizeOf({ creq: 'not base64 json', challengeWindowSize: '7' }), '02');
  });
});
