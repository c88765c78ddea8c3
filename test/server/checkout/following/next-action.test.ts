/**
 * Gateway-driven 3DS in the pure mapping (following/next-action.ts) and the flow's step keys
 * (following/flow-state.ts): the spec's `redirect_url`, the family's `redirect-to` and `html`,
 * from a status or from the sale answer; 3DS 1.0.2 without an MD; and every 3DS next action a
 * status maps to, with threeDSMethodData's known-answer vector.
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
  threeDsMethodData,
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
