/**
 * The merchant page a PCI DSS assessor signs off (issue 37; docs/security.md "PCI DSS scope"), in
 * every engine: the element pinned by its versioned path and `integrity` pays and runs no other
 * code of ours; the same tag refuses the file changed by one byte; a language file changed by one
 * byte is refused and English shows; and a CSP violation on the page reaches the backend's
 * `POST /v1/csp-reports` and its `/metrics`.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { scaled } from '../../support/time-scale.js';
import { METRICS_TOKEN } from '../support/stack.js';
import type { PageScript } from './drivers/tab.js';
import { expectApproved, type Journey, openCheckout, pay, type Shopper } from './journeys.js';
import { LAYOUT } from './page-scripts.js';

/** Every script resource the page loaded (module scripts and anything else `.js`). */
const SCRIPTS_LOADED: PageScript = `() => performance.getEntriesByType('resource')
  .filter((e) => e.initiatorType === 'script' || /\\.m?js(\\?|$)/.test(e.name))
  .map((e) => e.name)`;

const payText = async (s: Shopper) => (await s.tab.run<{ pay: string }>(LAYOUT)).pay;

const CSP_COUNT =
  /^pay_checkout_csp_reports_total\{directive="script-src-elem",blocked_origin="inline"\} (\d+)$/m;

async function inlineViolations(s: Shopper): Promise<number> {
  const res = await fetch(`${s.stack.shopUrl}/metrics`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  assert.equal(res.status, 200);
  return Number(CSP_COUNT.exec(await res.text())?.[1] ?? 0);
}

export const PINNED_JOURNEYS: Journey[] = [
  {
    name: 'pinned: the versioned file from the backend with its integrity, in German; no other script; it pays',
    async run(s) {
      const orderId = await openCheckout(s, { script: 'pinned', locale: 'de' });
      // German is a JSON file fetched cross-origin with the hash the file carries.
      await s.tab.waitFor(
        `() => { const t = document.querySelector('pay-checkout')?.shadowRoot?.querySelector('button[type="submit"]')?.textContent ?? ''; return /bezahlen/.test(t) ? t : null; }`,
        null,
        'the German Pay button ("… bezahlen")',
      );
      const scripts = await s.tab.run<string[]>(SCRIPTS_LOADED);
      assert.equal(scripts.length, 1, `scripts loaded: ${JSON.stringify(scripts)}`);
      assert.match(
        scripts[0] as string,
        /^http:\/\/localhost:\d+\/v\d+\.\d+\.\d+[^/]*\/pay-checkout\.js$/,
      );
      await pay(s, 'approved');
      await expectApproved(s, orderId);
    },
  },
  {
    name: 'pinned: the file changed by one byte is refused, and no element runs',
    async run(s) {
      const { url } = await s.shop.checkout({ script: 'file-changed' });
      await s.tab.goto(url);
      await s.tab.waitFor('() => window.scriptRefused === true', null, 'the script’s error event');
      assert.equal(await s.tab.run('() => customElements.get("pay-checkout") === undefined'), true);
    },
  },
  {
    name: 'pinned: a language file changed by one byte is refused and English shows',
    async run(s) {
      const orderId = await openCheckout(s, { script: 'language-changed', locale: 'de' });
      const text = await payText(s);
      assert.match(text, /^Pay\b/, `the Pay button says "${text}", not English`);
      s.note(`with de.json changed: "${text}"`);
      await pay(s, 'approved');
      await expectApproved(s, orderId);
    },
  },
  {
    name: 'a CSP violation on the payment page reaches POST /v1/csp-reports and /metrics',
    async run(s) {
      const before = await inlineViolations(s);
      const page = `/csp-violation/${randomUUID()}`;
      await s.tab.goto(`${s.shop.origin}${page}`);
      assert.equal(
        await s.tab.run('() => window.injected === undefined'),
        true,
        'the inline script ran',
      );
      // The backend logs each report at warn with the page's path: this page's report arrived.
      const deadline = Date.now() + scaled(90_000);
      while (!s.stack.output().includes(page)) {
        assert.ok(Date.now() < deadline, 'no csp violation logged for the page');
        await new Promise((r) => setTimeout(r, 250));
      }
      const after = await inlineViolations(s);
      assert.ok(after > before, `pay_checkout_csp_reports_total{inline} ${before} -> ${after}`);
      s.note(`inline violations in /metrics: ${before} -> ${after}`);
    },
  },
];
