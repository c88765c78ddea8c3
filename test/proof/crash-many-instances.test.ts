/**
 * The crash proof (issue 34): backend instances as real processes (support/crash-instance.ts)
 * on one store, against one sandbox, behind one address that forwards to a live instance (as a
 * load balancer would: the shoppers, the ACS's posts and the gateway's callbacks reach any
 * instance that is up). Many sessions are driven through declines, challenges answered and left,
 * late approvals, cancels and merchant captures, voids and returns, while instances are SIGKILLed
 * at random moments and restarted. Then everything is checked against the sandbox's own ledger:
 *  1. at most one approval kept per session (every other approved charge reversed at the gateway);
 *  2. every gateway transaction known to the store with the same status, and back;
 *  3. no order or money operation left non-final after the settle;
 *  4. exactly one `order.approved` event id per session with a kept approval, none without;
 *  5. captures and returns within the approved amount.
 * On PostgreSQL (TEST_DATABASE_URL) two instances share a schema and one is killed at a time; on
 * PGlite (single-process) the one instance is killed and restarted on its data folder.
 * Seeded: CRASH_SEED (printed) replays each session's choices (the kill moments follow the
 * machine's timing, so a run is replayed in its plan, not to the millisecond); CRASH_SESSIONS
 * sets the size (kept short by default for npm test).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { type IncomingMessage, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import {
  openCheckoutStore,
  PENDING_OPERATION_STATUSES,
  PENDING_ORDER_STATUSES,
} from '../../server/src/store/index.js';
import { freePort } from '../e2e/support/stack.js';
import { devMerchantAt } from '../support/loopback-stack.js';
import { copyNewDataFolder } from '../support/pglite-cache.js';
import {
  card,
  createSession,
  listen,
  merchant,
  prng,
  runMethod,
  type Sandbox,
  Shopper,
  sandboxTransactions,
  scaled,
  startSandbox,
  waitFor,
} from './support/proof.js';

const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 1e9));
const SESSIONS = Number(process.env.CRASH_SESSIONS ?? 16);
const CONCURRENCY = 4;
const DATABASE_URL = process.env.TEST_DATABASE_URL;
const ROOT = new URL('../../', import.meta.url).pathname;
/** The sandbox's bank approves a left late-approval challenge this soon; a left step ends later. */
const LATE_MS = 1_500;
const THREE_DS_TIMEOUT_MS = 6_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// biome-ignore lint/suspicious/noExplicitAny: the proof reads arbitrary JSON answers
type Json = any;

interface Instance {
  port: number;
  child?: ChildProcess;
  live: boolean;
}

describe(`crash proof: instances SIGKILLed at random on one store (${DATABASE_URL ? 'PostgreSQL, two instances' : 'PGlite, one instance restarted'})`, () => {
  let sb: Sandbox;
  let balancer: Server;
  let hooks: Server;
  let publicUrl = '';
  let dataDir = '';
  const schema = `crash_${randomBytes(5).toString('hex')}`;
  const instances: Instance[] = [];
  const received: { id: string; type: string }[] = [];
  let output = '';
  let settings: Record<string, unknown> = {};

  const live = () => instances.filter((i) => i.live);

  function launch(instance: Instance): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--liftoff-only', '--import', 'tsx', 'test/proof/support/crash-instance.ts'],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            CRASH_INSTANCE: JSON.stringify({ ...settings, port: instance.port }),
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      instance.child = child;
      const timer = setTimeout(() => reject(new Error(`no start:\n${output}`)), scaled(30_000));
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (chunk.toString().includes(`ready ${instance.port}`)) {
          clearTimeout(timer);
          instance.live = true;
          resolve();
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        output = `${output}${chunk.toString()}`.slice(-20_000);
      });
      child.once('exit', (code, signal) => {
        instance.live = false;
        clearTimeout(timer);
        // Only the proof's own SIGKILL or SIGTERM may end an instance: a crash is a failure.
        if (signal !== 'SIGKILL' && signal !== 'SIGTERM') crashes.push(`exit ${code}`);
        reject(new Error(`the instance exited (${code ?? signal})`));
      });
    });
  }
  const crashes: string[] = [];

  function kill(instance: Instance, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = instance.child;
    instance.live = false;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  /** Forwards each request to a live instance; a refused connection tries another. */
  function forward(req: IncomingMessage, res: import('node:http').ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (tries: number) => {
        const up = live();
        const target = up[Math.floor(Math.random() * up.length)];
        if (!target || tries > 5) {
          res.writeHead(502).end();
          return;
        }
        const upstream = request(
          {
            host: '127.0.0.1',
            port: target.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => {
          if (res.headersSent) res.destroy();
          else setTimeout(() => attempt(tries + 1), 100);
        });
        upstream.end(body);
      };
      attempt(0);
    });
  }

  before(async () => {
    console.log(`crash proof: CRASH_SEED=${SEED} CRASH_SESSIONS=${SESSIONS}`);
    sb = await startSandbox({ lateApprovalMs: LATE_MS, threeDsTimeoutMs: THREE_DS_TIMEOUT_MS });
    const lb = await listen(forward);
    balancer = lb.server;
    publicUrl = lb.url;
    const receiver = await listen((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => {
        text += c.toString();
      });
      req.on('end', () => {
        try {
          const event = JSON.parse(text) as { id: string; type: string };
          received.push({ id: event.id, type: event.type });
        } catch {}
        res.writeHead(200).end();
      });
    });
    hooks = receiver.server;
    if (!DATABASE_URL) {
      dataDir = await mkdtemp(join(tmpdir(), 'pay-checkout-crash-'));
      await copyNewDataFolder(dataDir);
    }
    settings = {
      publicUrl,
      gateway: devMerchantAt(sb, sb.gatewayUrl),
      webhook: { url: `${receiver.url}/hooks`, secret: 'crash-webhook-secret-0123456789' },
      ...(DATABASE_URL ? { databaseUrl: DATABASE_URL, schema } : { dataDir }),
    };
    for (let n = 0; n < (DATABASE_URL ? 2 : 1); n++) {
      instances.push({ port: await freePort(), live: false });
    }
    // One after the other: the first migrates the store.
    for (const instance of instances) await launch(instance);
  });
  after(async () => {
    for (const instance of instances) await kill(instance, 'SIGTERM');
    balancer?.closeAllConnections();
    balancer?.close();
    hooks?.closeAllConnections();
    hooks?.close();
    await sb?.sandbox.idle();
    await sb?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (DATABASE_URL) {
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`).finally(() => client.end());
    }
  });

  /** A widget call that a dead instance may fail: null then (the caller goes on from /next). */
  async function widget(token: string, method: 'GET' | 'POST', path: string, body?: unknown) {
    try {
      const answer = await new Shopper(publicUrl, token).call(method, path, body);
      return answer.status >= 500 ? null : answer;
    } catch {
      return null;
    }
  }
  /** A merchant call retried under its Idempotency-Key until an instance answers it. */
  async function merchantOnce(path: string, body: unknown, key: string, until: number) {
    while (Date.now() < until) {
      const answer = await merchant(publicUrl, 'POST', path, body, {
        'Idempotency-Key': key,
      }).catch(() => null);
      if (answer && answer.status < 500) return answer;
      await sleep(150);
    }
    return null;
  }

  const plans: { orderId: string; sessionId: string; scenario: string[] }[] = [];

  /** One shopper's session, its choices drawn from the seed and its own index. */
  async function journey(index: number): Promise<void> {
    const random = prng(SEED + index * 7919);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const intent = random() < 0.4 ? 'preauth' : 'sale';
    const first = pick([
      'approved',
      'insufficient-funds',
      '3ds2-challenge',
      '3ds2-challenge-late-approval',
      '3ds2-challenge-late-approval',
    ]);
    const cards = [first, pick(['approved', 'approved', '3ds2-challenge', 'declined'])];
    const leaveChallenge = random() < 0.5;
    const cancelAfterPay = random() < 0.1;
    const operation = pick(['capture', 'capture-part', 'void', 'return', 'return-part', 'none']);
    const until = Date.now() + scaled(60_000);
    const orderId = `crash-${SEED}-${index}`;
    let session: { id: string; token: string } | undefined;
    while (!session && Date.now() < until) {
      session = await createSession(publicUrl, { orderId, intent, maxAttempts: 3 }).catch(
        () => undefined,
      );
      if (!session) await sleep(150);
    }
    assert.ok(session, `session ${orderId} never created`);
    plans.push({ orderId, sessionId: session.id, scenario: [intent, ...cards] });
    const token = session.token;
    let final: Json;
    for (let attempt = 1; attempt <= cards.length; attempt++) {
      const scenario = cards[attempt - 1] as string;
      let action: Json = null;
      // Pay, or, when its answer was lost, find out from /next whether it was taken.
      while (!action && Date.now() < until) {
        const paid = await widget(
          token,
          'POST',
          '/pay',
          new Shopper(publicUrl, token).payBody(card(scenario)),
        );
        if (paid?.status === 200) action = paid.body;
        else {
          const next = await widget(token, 'GET', '/next?wait=0');
          if (next?.status === 200 && next.body.order?.attempt === attempt) action = next.body;
          else await sleep(150);
        }
      }
      if (cancelAfterPay && attempt === 1) await widget(token, 'POST', '/cancel', {});
      let answered = false;
      while (action && action.action !== 'final' && Date.now() < until) {
        if (action.action === 'method') {
          if (action.methodUrl && action.methodData) {
            await runMethod(action.methodUrl, action.methodData).catch(() => null);
          }
          await widget(token, 'POST', '/method-result', {
            threeDSCompInd: action.methodUrl ? 'Y' : 'U',
            browser: (await import('../support/widget-api-client.js')).BROWSER,
          });
        } else if (action.action === 'challenge' && !answered) {
          if (leaveChallenge || scenario === '3ds2-challenge-late-approval') {
            await widget(token, 'POST', '/cancel', { reason: 'challenge-cancelled' });
          } else {
            answered = await answer(action).catch(() => false);
          }
        }
        const next = await widget(token, 'GET', '/next?wait=1');
        if (next?.status === 200) action = next.body;
        else await sleep(150);
      }
      final = action;
      if (!final || final.order?.status === 'approved' || !(final.order?.attemptsLeft > 0)) break;
    }
    if (final?.order?.status !== 'approved' || operation === 'none') return;
    const path = `/v1/orders/${orderId}/${operation.split('-')[0]}`;
    const amount = operation.endsWith('part') ? { amount: '1.00' } : {};
    if (intent === 'sale' && operation.startsWith('return')) {
      await merchantOnce(path, amount, `op-${orderId}`, until);
    } else if (intent === 'preauth' && !operation.startsWith('return')) {
      await merchantOnce(path, operation === 'void' ? {} : amount, `op-${orderId}`, until);
    }
  }

  /** The ACS's page, the code, and its form back to our return page, reposted until it lands. */
  async function answer(action: Json): Promise<boolean> {
    const { parseForm, postForm } = await import('./support/proof.js');
    const page = await postForm(action.acsUrl, { creq: action.creq });
    const otpForm = parseForm(page.html, action.acsUrl);
    if (!otpForm) return false;
    const done = await postForm(otpForm.action, {
      ...otpForm.fields,
      otp: card('3ds2-challenge').otp ?? '',
      action: 'submit',
    });
    const back = parseForm(done.html, otpForm.action);
    if (!back) return false;
    for (let i = 0; i < 20; i++) {
      const ours = await postForm(back.action, back.fields).catch(() => null);
      if (ours && ours.status < 500) return true;
      await sleep(200);
    }
    return false;
  }

  it('keeps every money invariant through SIGKILLs, checked against the sandbox ledger', async () => {
    const started = Date.now();
    let driving = true;
    let kills = 0;
    const killRandom = prng(SEED ^ 0x5eed);
    const killer = (async () => {
      while (driving) {
        await sleep(400 + killRandom() * 1_000);
        if (!driving) break;
        const up = live();
        // On PostgreSQL one instance stays up; PGlite's only instance goes down and comes back.
        if (up.length === 0 || (instances.length > 1 && up.length < 2)) continue;
        const victim = up[Math.floor(killRandom() * up.length)] as Instance;
        await kill(victim);
        kills++;
        await sleep(200 + killRandom() * 600);
        await launch(victim).catch(() => {});
      }
    })();
    let nextIndex = 0;
    const workers = Array.from({ length: CONCURRENCY }, async () => {
      while (nextIndex < SESSIONS) await journey(nextIndex++);
    });
    try {
      await Promise.all(workers);
    } finally {
      driving = false;
      await killer;
    }
    for (const instance of instances) if (!instance.live) await launch(instance);
    const drove = Date.now() - started;

    // Settle: every attempt final at the gateway and here, every reversal done.
    const view = (orderId: string) =>
      merchant(publicUrl, 'GET', `/v1/orders/${orderId}`).catch(() => null);
    await waitFor(
      'every order final and every reversal done',
      async () => {
        for (const plan of plans) {
          for (const tx of await sandboxTransactions(sb, plan.orderId)) {
            if (tx.status === 'processing') return false;
          }
          const read = await view(plan.orderId);
          if (read?.status !== 200) return false;
          if (PENDING_ORDER_STATUSES.includes(read.body.status)) return false;
          for (const a of read.body.attempts as Json[]) {
            if (PENDING_ORDER_STATUSES.includes(a.status)) return false;
            if (a.reversal && !a.reversal.reversedAt) return false;
          }
        }
        return true;
      },
      { timeoutMs: 40_000, everyMs: 300 },
    );
    for (const instance of instances) await kill(instance, 'SIGTERM');
    const store = await openCheckoutStore(
      DATABASE_URL ? { url: DATABASE_URL, schema } : { dataDir },
    );
    const failures: string[] = [...crashes.map((c) => `an instance crashed: ${c}`)];
    let approvals = 0;
    let reversed = 0;
    try {
      for (const plan of plans) {
        const attempts = await store.orders.attemptsOf(plan.sessionId);
        const txs = (
          await Promise.all(attempts.map((a) => sandboxTransactions(sb, a.clientOrderId)))
        ).flat() as Json[];
        // 1. At most one approval kept at the gateway.
        const approved = txs.filter((t) => t.operations?.[0]?.status === 'approved');
        approvals += approved.length;
        const kept = approved.filter((t) => {
          const settled = t.settledMinor ?? t.amountMinor;
          return t.hold !== 'released' && !(t.returnedMinor >= settled && settled > 0);
        });
        if (kept.length > 1) failures.push(`${plan.orderId}: ${kept.length} approvals kept`);
        // 2. Every gateway transaction known here with the same status, and back.
        for (const tx of txs) {
          const mine = attempts.find((a) => a.clientOrderId === tx.clientOrderId);
          const status = tx.operations?.[0]?.status ?? tx.status;
          if (!mine) failures.push(`${tx.clientOrderId}: unknown to the store`);
          else if (mine.status !== status)
            failures.push(`${tx.clientOrderId}: ${mine.status} here, ${status} at the gateway`);
          else if (mine.gatewayOrderId !== tx.orderid)
            failures.push(
              `${tx.clientOrderId}: gateway id ${mine.gatewayOrderId} vs ${tx.orderid}`,
            );
          // 5. Captures and returns within the approved amount.
          const sum = (type: string) =>
            (tx.operations as Json[])
              .filter((o) => o.type === type && o.status === 'approved')
              .reduce((n, o) => n + o.amountMinor, 0);
          if (sum('capture') > tx.amountMinor) failures.push(`${tx.clientOrderId}: over-captured`);
          const settled = tx.kind === 'sale' ? tx.amountMinor : sum('capture');
          if (tx.hold !== 'released' && sum('return') > settled)
            failures.push(`${tx.clientOrderId}: over-returned`);
        }
        for (const a of attempts) {
          // 3. Nothing left pending.
          if (PENDING_ORDER_STATUSES.includes(a.status))
            failures.push(`${a.clientOrderId}: still ${a.status}`);
          if (a.gatewayOrderId && !txs.some((t) => t.orderid === a.gatewayOrderId))
            failures.push(`${a.clientOrderId}: not in the ledger`);
          if (a.reversedAt) reversed++;
        }
        // 4. One order.approved event id per kept approval.
        const approvedEvents = new Set<string>();
        for (const a of attempts) {
          for (const e of await store.webhooks.forOrder(a.id)) {
            if (e.event === 'order.approved') approvedEvents.add(String(e.payload.id));
          }
        }
        const expected = approved.length > 0 ? 1 : 0;
        if (approvedEvents.size !== expected)
          failures.push(`${plan.orderId}: ${approvedEvents.size} order.approved event ids`);
      }
      const { rows } = await store.db.query<{ id: string; kind: string; status: string }>(
        `select id, kind, status from merchant_operations where status = any($1::text[])`,
        [[...PENDING_OPERATION_STATUSES]],
      );
      for (const op of rows) failures.push(`operation ${op.id} (${op.kind}) still ${op.status}`);
    } finally {
      await store.close();
    }
    console.log(
      `crash proof: seed ${SEED}, ${plans.length} sessions, ${kills} SIGKILLs, ${approvals} approvals at the gateway, ${reversed} reversed, drive ${drove} ms, total ${Date.now() - started} ms`,
    );
    assert.ok(kills > 0 || SESSIONS < 3, 'no instance was killed');
    assert.deepEqual(failures, [], `CRASH_SEED=${SEED}\n${output.slice(-3_000)}`);
  });
});
