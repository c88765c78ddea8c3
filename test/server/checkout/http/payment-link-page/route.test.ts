/**
 * The payment link page, on PGlite and PostgreSQL: a guessed id is a 404 that names nothing; a
 * first visit gets a session of its own and its own address (a reload keeps the session); the
 * page pins the element by integrity under a strict CSP; a one-off link paid in two visits keeps
 * one approval and reverses the other; a reusable link with maxPayments 2 takes two and closes;
 * an expired or deactivated link takes none; the page speaks the shopper's (or the link's)
 * language; the page is rate limited per IP.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sri } from '../../../../../server/src/sri.js';
import type { CheckoutStore } from '../../../../../server/src/store/index.js';
import {
  type Backend,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../../../support/loopback-stack.js';
import { pgliteStore, postgresStore, type TestStore } from '../../../../support/stores.js';
import { scaled } from '../../../../support/time-scale.js';
import { CUSTOMER, merchant, Shopper, testCard } from '../../../../support/widget-api-client.js';

const LINK = {
  amount: '10.42',
  currency: 'EUR',
  description: 'Phone order 77',
  customer: CUSTOMER,
};
const INTEGRITY = 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC';

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  explain?: () => Promise<string>,
) {
  // A reversal is a gateway return followed to its end: on a loaded machine, tens of seconds.
  const end = Date.now() + scaled(30_000);
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end)
      assert.fail(`timed out waiting for ${what}${explain ? `: ${await explain()}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The `session` attribute of the page's element, and the session id its token names. */
function sessionOf(html: string): { token: string; sessionId: string } {
  const token = /<pay-checkout [^>]*session="([^"]+)"/.exec(html)?.[1];
  assert.ok(token, html);
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
  return { token, sessionId: payload.sub };
}

for (const testStore of [pgliteStore(), postgresStore('link_page')] as TestStore[]) {
  describe(`the payment link page (${testStore.kind})`, () => {
    let store: CheckoutStore;
    let sb: Sandbox;
    let be: Backend;
    let widgetDir: string;
    before(async () => {
      widgetDir = await mkdtemp(join(tmpdir(), 'link-page-'));
      await writeFile(
        join(widgetDir, 'integrity.json'),
        JSON.stringify({ version: '9.8.7', files: { 'pay-checkout.js': INTEGRITY } }),
      );
      store = await testStore.open();
      sb = await startSandbox();
      be = await startBackend(sb, {
        store,
        widgetDir,
        publicLimits: { payPagePerIp: 1000 },
        config: { paymentLinkPage: { merchantName: 'Corner <Shop>', colors: { primary: '#0a7' } } },
      });
    });
    after(async () => {
      await be.close();
      await sb.close();
      await store.close();
      await testStore.cleanup();
      await rm(widgetDir, { recursive: true, force: true });
    });

    const newLink = async (extra: Record<string, unknown> = {}) => {
      const res = await merchant(be.url, 'POST', '/v1/payment-links', { ...LINK, ...extra });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body as { id: string; url: string };
    };
    const get = (url: string, headers: Record<string, string> = {}) =>
      fetch(url, { redirect: 'manual', headers });
    /** A first visit: its own address, and the page there. */
    const visit = async (url: string) => {
      const first = await get(url);
      assert.equal(first.status, 303, await first.text());
      const at = first.headers.get('location') ?? '';
      assert.match(at, /\?visit=[A-Za-z0-9_-]{22}$/);
      const page = await get(at);
      assert.equal(page.status, 200);
      return { at, html: await page.text(), headers: page.headers };
    };
    const linkOf = async (id: string) =>
      (await merchant(be.url, 'GET', `/v1/payment-links/${id}`)).body;
    const pageText = async (url: string, headers: Record<string, string> = {}) => {
      const res = await get(url, headers);
      return { status: res.status, html: await res.text() };
    };

    it('a guessed or malformed id is a 404 that names nothing of any link', async () => {
      const real = await newLink();
      for (const id of ['plink_AAAAAAAAAAAAAAAAAAAAAA', 'x', `${real.id}x`]) {
        const res = await pageText(`${be.url}/pay/${id}`);
        assert.equal(res.status, 404);
        assert.match(res.html, /There is no payment here\./);
        assert.doesNotMatch(res.html, /Phone order|10[.,]42|<pay-checkout|plink_/);
      }
    });

    it('a visit: its own session and address, kept on reload; the element pinned by integrity under a strict CSP', async () => {
      const link = await newLink();
      const { at, html, headers } = await visit(link.url);
      const { sessionId } = sessionOf(html);
      assert.match(
        html,
        new RegExp(
          `<script type="module" src="${be.url}/v9\\.8\\.7/pay-checkout\\.js" integrity="${INTEGRITY.replace(/[+/]/g, '\\$&')}" crossorigin="anonymous"></script>`,
        ),
      );
      assert.match(html, /<h1>Corner &#60;Shop&#62;<\/h1>/);
      assert.match(html, /Phone order 77/);
      assert.match(html, /€10\.42/);
      assert.match(html, /--pay-color-primary:#0a7/);
      assert.equal((html.match(/<script/g) ?? []).length, 1, 'one script, no inline one');
      const csp = headers.get('content-security-policy') ?? '';
      assert.match(csp, new RegExp(`script-src ${new URL(be.url).origin} 'self'(;|$)`));
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/);
      assert.doesNotMatch(csp, /script-src[^;]*unsafe/);
      assert.match(csp, new RegExp(`report-uri ${be.url}/v1/csp-reports; report-to csp$`));
      assert.equal(headers.get('reporting-endpoints'), `csp="${be.url}/v1/csp-reports"`);
      assert.equal(headers.get('referrer-policy'), 'no-referrer');
      assert.equal(headers.get('cache-control'), 'no-store');
      const again = await pageText(at);
      assert.equal(sessionOf(again.html).sessionId, sessionId);
      const session = await store.sessions.get(sessionId);
      assert.equal(session?.state, 'open');
      assert.match(session?.clientOrderId ?? '', /^pl-[a-z]{12}-1$/);
      assert.equal(session?.metadata.paymentLinkId, link.id);
      assert.deepEqual(session?.customer, CUSTOMER);
      // A token of no visit of this link starts a visit of its own.
      const stranger = await get(`${link.url}?visit=AAAAAAAAAAAAAAAAAAAAAA`);
      assert.equal(stranger.status, 303);
      assert.equal(stranger.headers.get('location'), link.url);
    });

    it('with a returnUrl: a hidden Continue link, shown by the page’s own script, pinned by its hash', async () => {
      const link = await newLink({ returnUrl: 'https://shop.example/thanks' });
      const { html } = await visit(link.url);
      assert.match(
        html,
        /<a id="continue" hidden href="https:\/\/shop\.example\/thanks">Continue<\/a>/,
      );
      const tag = /<script src="([^"]+)" integrity="([^"]+)" defer><\/script>/.exec(html);
      assert.ok(tag, html);
      assert.equal(tag[1], `${be.url}/pay/assets/link-page.js`);
      const served = await fetch(tag[1] ?? '');
      assert.equal(served.status, 200);
      assert.match(served.headers.get('content-type') ?? '', /javascript/);
      assert.equal(sri(await served.text()), tag[2]);
    });

    it('a link that knows only an amount gives its visit a session that asks the shopper for the rest', async () => {
      const res = await merchant(be.url, 'POST', '/v1/payment-links', {
        amount: '5.00',
        currency: 'EUR',
        description: 'Chat order',
        collect: { email: 'always', phone: 'auto', billingAddress: 'auto' },
        countryHint: 'DE',
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const { sessionId } = sessionOf((await visit(res.body.url)).html);
      const session = await store.sessions.get(sessionId);
      assert.deepEqual(session?.customer, {});
      assert.deepEqual(session?.collect, {
        email: 'always',
        phone: 'auto',
        billingAddress: 'auto',
      });
      assert.equal(session?.countryHint, 'DE');
    });

    it('a one-off link paid in two visits keeps one approval and reverses the other', async () => {
      const link = await newLink({ orderId: `two-tabs-${Date.now().toString(36)}` });
      const a = sessionOf((await visit(link.url)).html);
      const bVisit = await visit(link.url);
      const b = sessionOf(bVisit.html);
      assert.notEqual(a.sessionId, b.sessionId);
      const paidA = await new Shopper(be.url, a.token).complete(testCard('approved'));
      assert.equal(paidA.action, 'final');
      assert.equal(paidA.order.status, 'approved');
      const paid = await linkOf(link.id);
      assert.equal(paid.state, 'paid');
      assert.equal(paid.paymentCount, 1);
      assert.deepEqual(
        paid.payments.map((p: { orderId: string }) => p.orderId),
        [`${paid.orderIdPrefix}-1`],
      );
      // The second tab was open before the sweeper closed it: its approval is not kept.
      const paidB = await new Shopper(be.url, b.token).complete(testCard('approved'));
      assert.equal(paidB.action, 'final');
      const bAttempt = await store.orders.getByClientOrderId(`${paid.orderIdPrefix}-2`);
      assert.ok(bAttempt);
      // Reversed at once, or by the reconciler's reversal pass (run here: no timers in this test).
      const reversed = await waitFor(
        'the reversal',
        async () => {
          const row = await store.orders.get(bAttempt.id);
          if (row?.reversedAt) return row;
          await be.checkout.reconcile(0);
          return null;
        },
        async () => {
          const { rows } = await store.db.query(
            'select kind, status, data from merchant_operations order by seq desc limit 3',
          );
          return JSON.stringify({ row: await store.orders.get(bAttempt.id), ops: rows });
        },
      );
      assert.equal(reversed.status, 'approved');
      assert.match(
        reversed.reversalReason ?? '',
        /took its 1 payment\(s\) before the bank approved/,
      );
      assert.equal(reversed.returnedMinor, 1042);
      const after = await linkOf(link.id);
      assert.equal(after.paymentCount, 1);
      const { rows } = await store.db.query<{ event: string }>(
        `select event from merchant_webhooks where event like 'payment_link.%'
           and payload->'data'->'paymentLink'->>'id' = $1`,
        [link.id],
      );
      assert.deepEqual(
        rows.map((r) => r.event),
        ['payment_link.paid'],
      );
      // The paying visit thanks the shopper; the link's address says it is paid.
      assert.match(
        (
          await pageText(
            `${link.url}?visit=${(await store.db.query<{ token: string }>('select token from payment_link_visits where session_id = $1', [a.sessionId])).rows[0]?.token}`,
          )
        ).html,
        /Payment received\. Thank you\./,
      );
      assert.match((await pageText(link.url)).html, /This link has already been paid\./);
    });

    it('a reusable link with maxPayments 2 takes two payments, then says it is closed', async () => {
      const link = await newLink({ reusable: true, maxPayments: 2 });
      const visits = [await visit(link.url), await visit(link.url), await visit(link.url)];
      for (const v of visits.slice(0, 2)) {
        const done = await new Shopper(be.url, sessionOf(v.html).token).complete(
          testCard('approved'),
        );
        assert.equal(done.order.status, 'approved');
      }
      const paid = await linkOf(link.id);
      assert.equal(paid.state, 'paid');
      assert.equal(paid.paymentCount, 2);
      assert.equal(paid.payments.length, 2);
      // The sweeper ends the third visit's open session: it takes no payment.
      await be.checkout.sweepPaymentLinks();
      const third = sessionOf(visits[2]?.html ?? '');
      assert.equal((await store.sessions.get(third.sessionId))?.state, 'expired');
      const refused = await new Shopper(be.url, third.token).call(
        'POST',
        '/pay',
        new Shopper(be.url, third.token).payBody(testCard('approved')),
      );
      assert.notEqual(refused.status, 200);
      assert.match(
        (await pageText(visits[2]?.at ?? '')).html,
        /This link takes no more payments\./,
      );
      const plain = await get(link.url);
      assert.equal(plain.status, 200);
      assert.match(await plain.text(), /This link takes no more payments\./);
    });

    it('an expired or deactivated link takes none, and says so in the shopper’s language', async () => {
      const expired = await newLink();
      await store.db.query(
        "update payment_links set expires_at = now() - interval '1 second' where id = $1",
        [expired.id],
      );
      const e = await pageText(expired.url, { 'Accept-Language': 'de-CH,de;q=0.9' });
      assert.equal(e.status, 200);
      assert.match(e.html, /<html lang="de"/);
      assert.match(e.html, /Dieser Zahlungslink ist abgelaufen\./);
      assert.doesNotMatch(e.html, /<pay-checkout/);

      const off = await newLink({ locale: 'fr' });
      const open = await visit(off.url);
      const { sessionId } = sessionOf(open.html);
      await merchant(be.url, 'POST', `/v1/payment-links/${off.id}/deactivate`, {});
      assert.equal((await store.sessions.get(sessionId))?.state, 'expired');
      const d = await pageText(open.at, { 'Accept-Language': 'de' });
      assert.match(d.html, /<html lang="fr"/);
      assert.match(d.html, /Ce lien de paiement n’est plus disponible\./);
      const { rows } = await store.db.query<{ n: number }>(
        'select count(*)::int as n from payment_link_visits where link_id = $1',
        [off.id],
      );
      assert.equal((await pageText(off.url)).status, 200);
      const { rows: after } = await store.db.query<{ n: number }>(
        'select count(*)::int as n from payment_link_visits where link_id = $1',
        [off.id],
      );
      assert.equal(after[0]?.n, rows[0]?.n, 'no visit of a deactivated link');
    });
  });
}

describe('the payment link page is rate limited per IP', () => {
  let sb: Sandbox;
  let be: Backend;
  before(async () => {
    sb = await startSandbox();
    be = await startBackend(sb, { publicLimits: { payPagePerIp: 3 } });
  });
  after(async () => {
    await be.close();
    await sb.close();
  });

  it('answers 429 past the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await fetch(`${be.url}/pay/plink_AAAAAAAAAAAAAAAAAAAAAA`)).status);
    }
    assert.deepEqual(statuses, [404, 404, 404, 429]);
  });
});
