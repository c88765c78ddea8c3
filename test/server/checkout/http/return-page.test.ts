/** The return page (http/return-page/page.ts): its one script, allowed by hash, cannot be broken out of. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { en } from '../../../../server/src/checkout/http/page-words/en.js';
import {
  RETURN_SCRIPT_HASH,
  renderReturnPage,
} from '../../../../server/src/checkout/http/return-page/page.js';

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
