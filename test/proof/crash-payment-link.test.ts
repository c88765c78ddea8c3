/**
 * Crash proof of a payment link: the backend is a real process of its own
 * (support/crash-instance.ts: the checkout app of `main.ts server`, its reconciler, sweeper and
 * webhook sender on, on a PGlite data folder), SIGKILLed in the middle of a visit's payment and
 * restarted on the same data folder. The sandbox lives on in this process, as a real gateway
 * outlives a merchant's crash, so that its own ledger is read at the end (exactlyOneCharge).
 * Its address goes through a proxy of this test, which stops the backend at the moment chosen:
 *  - "sale": the sale reached the sandbox and was taken; the process is killed before its answer
 *    comes back (the store never learned the gateway's order id: it reconciles by client_orderid);
 *  - "status": the sale was answered (processing) and the process is killed at its first status
 *    question, before any answer tells it the final status.
 * A second tab of the same one-off link is open all along. After the restart: the visit's order is
 * reconciled to `approved` (the shopper's tab says so), the link is `paid` with that one payment,
 * `payment_link.paid` is made once (listed and delivered once), the other tab's session is ended
 * by the sweeper and takes no payment, and the sandbox holds exactly one charge for the link.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureWidgetBuilt } from '../../server/src/widget-build.js';
import { freePort } from '../e2e/support/stack.js';
import { devMerchantAt } from '../support/loopback-stack.js';
import { copyNewDataFolder } from '../support/pglite-cache.js';
import {
  CUSTOMER,
  card,
  closeServer,
  exactlyOneCharge,
  listen,
  merchant,
  payBody,
  type Sandbox,
  Shopper,
  sandboxTransactions,
  scaled,
  startSandbox,
  uniqueOrderId,
  waitFor,
} from './support/proof.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Where the proxy stops the backend: at the sale's answer, or at its first status question. */
type KillAt = 'sale' | 'status';

// biome-ignore lint/suspicious/noExplicitAny: the proof reads the JSON answers as they are
type Json = any;

describe('crash proof: a payment link visit SIGKILLed mid-payment, restarted on its data folder', () => {
  let sb: Sandbox;
  let proxy: Server;
  let hooks: Server;
  let dataDir = '';
  let port = 0;
  let url = '';
  let child: ChildProcess | undefined;
  let output = '';
  /** The moment to kill at (armed for one order), and whether it came. */
  let trap: { at: KillAt; orderId: string; sprung: boolean } | undefined;
  const delivered: { id: string; type: string; data: Json }[] = [];
  let settings: Record<string, unknown> = {};

  function launch(): Promise<void> {
    return new Promise((resolve, reject) => {
      const proc = spawn(
        process.execPath,
        ['--liftoff-only', '--import', 'tsx', 'test/proof/support/crash-instance.ts'],
        {
          cwd: ROOT,
          env: { ...process.env, CRASH_INSTANCE: JSON.stringify(settings) },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child = proc;
      const timer = setTimeout(() => reject(new Error(`no start:\n${output}`)), scaled(30_000));
      proc.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(`ready ${port}`)) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.stderr?.on('data', (chunk: Buffer) => {
        output = `${output}${chunk.toString()}`.slice(-20_000);
      });
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the instance exited (${code ?? signal}):\n${output}`));
      });
    });
  }

  const exited = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });

  /**
   * The gateway as the backend reaches it: every request forwarded to the sandbox, except at the
   * trap, where the backend is SIGKILLed (the sale: once the sandbox took it and answered; a
   * status: before it is even asked) and the answer never goes back.
   */
  function gatewayProxy(target: URL) {
    return listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const form = new URLSearchParams(body.toString());
        const armed =
          trap && !trap.sprung && form.get('client_orderid') === trap.orderId ? trap : undefined;
        const op = /\/api\/v2\/(sale|status)\//.exec(req.url ?? '')?.[1];
        if (armed && op === 'status' && armed.at === 'status') {
          armed.sprung = true;
          child?.kill('SIGKILL');
          return;
        }
        const upstream = request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (answer) => {
            const back: Buffer[] = [];
            answer.on('data', (c: Buffer) => back.push(c));
            answer.on('end', () => {
              if (armed && op === 'sale' && armed.at === 'sale') {
                // The sandbox took the sale; the process dies before it hears so.
                armed.sprung = true;
                child?.kill('SIGKILL');
                return;
              }
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(Buffer.concat(back));
            });
          },
        );
        upstream.on('error', () => res.destroy());
        upstream.end(body);
      });
    });
  }

  before(async () => {
    // The link page pins the built element (startStack builds it the same way).
    await ensureWidgetBuilt(ROOT);
    sb = await startSandbox();
    const gw = await gatewayProxy(new URL(sb.origin));
    proxy = gw.server;
    const receiver = await listen((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => {
        text += c.toString();
      });
      req.on('end', () => {
        try {
          delivered.push(JSON.parse(text));
        } catch {}
        res.writeHead(200).end();
      });
    });
    hooks = receiver.server;
    dataDir = await mkdtemp(join(tmpdir(), 'pay-checkout-crash-link-'));
    await copyNewDataFolder(dataDir);
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    settings = {
      port,
      publicUrl: url,
      gateway: devMerchantAt(sb, `${gw.url}${sb.sandbox.basePath}`),
      webhook: { url: `${receiver.url}/hooks`, secret: 'crash-link-webhook-secret-0123456789' },
      dataDir,
    };
    await launch();
  });
  after(async () => {
    child?.kill('SIGTERM');
    await exited();
    await closeServer(proxy);
    await closeServer(hooks);
    await sb.sandbox.idle();
    await sb.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A first visit of the link: its address, and the token of the page's element. */
  const visit = async (linkUrl: string) => {
    const first = await fetch(linkUrl, { redirect: 'manual' });
    assert.equal(first.status, 303, await first.text());
    const at = first.headers.get('location') ?? '';
    const page = await fetch(at, { redirect: 'manual' });
    assert.equal(page.status, 200);
    const html = await page.text();
    const token = /<pay-checkout [^>]*session="([^"]+)"/.exec(html)?.[1];
    assert.ok(token, html.slice(0, 400));
    const sessionId = JSON.parse(
      Buffer.from(token.split('.')[1] ?? '', 'base64url').toString(),
    ).sub;
    return { at, token, sessionId: String(sessionId) };
  };

  for (const at of ['sale', 'status'] as const) {
    it(`killed at the ${at === 'sale' ? "sale's answer" : 'first status question'}: reconciled after the restart, the link paid once, one charge`, async () => {
      const prefix = uniqueOrderId(`crash-link-${at}`);
      const created = await merchant(url, 'POST', '/v1/payment-links', {
        amount: '23.45',
        currency: 'EUR',
        description: 'Crash invoice',
        customer: CUSTOMER,
        orderId: prefix,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const link = created.body as { id: string; url: string };
      const paying = `${prefix}-1`;
      const tabA = await visit(link.url);
      const tabB = await visit(link.url);

      trap = { at, orderId: paying, sprung: false };
      const shopper = new Shopper(url, tabA.token);
      const answered = await shopper
        .call('POST', '/pay', payBody(card('approved').pan))
        .then(() => true)
        .catch(() => false);
      assert.equal(answered, false, 'the process died before the pay answered');
      assert.equal(trap.sprung, true);
      await exited();
      // The sale is at the gateway: the sandbox took it, and the process never heard its end.
      const [charge] = await sandboxTransactions(sb, paying);
      assert.equal(charge?.kind, 'sale');

      await launch();

      // The shopper's tab, still open, follows its order to its end.
      const final = await shopper.until(await shopper.next(2), 20_000);
      assert.equal(final.action, 'final', JSON.stringify(final));
      assert.equal(final.action === 'final' && final.order.status, 'approved');
      const order = (await merchant(url, 'GET', `/v1/orders/${paying}`)).body as Json;
      assert.deepEqual(
        [order.status, order.amount, order.currency, order.returnedAmount, order.attempts.length],
        ['approved', '23.45', 'EUR', '0.00', 1],
      );
      assert.equal(order.attempts[0].reversal, null);

      const paid = (await merchant(url, 'GET', `/v1/payment-links/${link.id}`)).body as Json;
      assert.equal(paid.state, 'paid');
      assert.equal(paid.paymentCount, 1);
      assert.deepEqual(
        paid.payments.map((p: { orderId: string }) => p.orderId),
        [paying],
      );

      // The other tab's session is ended by the sweeper: it takes no payment.
      await waitFor('the other tab closed', async () => {
        const s = await merchant(url, 'GET', `/v1/checkout-sessions/${tabB.sessionId}`);
        return s.body?.state === 'expired' ? true : undefined;
      });
      const refused = await new Shopper(url, tabB.token).call(
        'POST',
        '/pay',
        payBody(card('approved').pan),
      );
      assert.notEqual(refused.status, 200, JSON.stringify(refused.body));

      // The paying tab thanks the shopper; the link's address says it is paid.
      assert.match(await (await fetch(tabA.at)).text(), /Payment received\. Thank you\./);
      assert.match(await (await fetch(link.url)).text(), /This link has already been paid\./);

      // payment_link.paid made once, and delivered (maybe more than once: one id).
      const listed = await waitFor('payment_link.paid listed and delivered', async () => {
        const res = await merchant(url, 'GET', '/v1/events?type=payment_link.paid&limit=100');
        const mine = (res.body.events as Json[]).filter((e) => e.data.paymentLink.id === link.id);
        return mine.length > 0 && mine.every((e) => e.delivery.delivered) ? mine : undefined;
      });
      assert.equal(listed.length, 1);
      assert.deepEqual(
        listed[0].data.paymentLink.payments.map((p: { orderId: string }) => p.orderId),
        [paying],
      );
      const deliveredIds = new Set(
        delivered
          .filter((e) => e.type === 'payment_link.paid' && e.data.paymentLink.id === link.id)
          .map((e) => e.id),
      );
      assert.deepEqual([...deliveredIds], [listed[0].id]);
      const approvedEvents = await merchant(url, 'GET', '/v1/events?type=order.approved&limit=100');
      assert.equal(
        (approvedEvents.body.events as Json[]).filter((e) => e.data.order.orderId === paying)
          .length,
        1,
      );

      // The sandbox's own ledger: one charge for the link, approved, of the full amount.
      await sb.sandbox.idle();
      const one = await exactlyOneCharge(sb, paying);
      assert.deepEqual(
        [
          one.status,
          one.amountMinor,
          one.currency,
          one.operations.filter((o) => o.type === 'return' || o.type === 'void'),
        ],
        ['approved', 2345, 'EUR', []],
      );
      assert.deepEqual(await sandboxTransactions(sb, `${prefix}-2`), []);
    });
  }
});
