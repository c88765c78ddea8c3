/** The 3DS next action a gateway status maps to (following/next-action.ts), and threeDSMethodData. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSafeUrl } from '../../../../contract/safe-url.js';
import {
  mapStatusToAction,
  threeDsMethodData,
} from '../../../../server/src/checkout/following/next-action.js';

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
