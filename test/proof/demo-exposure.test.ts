/**
 * The demo shop's `/demo/api/operation/*` relays captures, returns and payouts with the merchant
 * API key to anyone who reaches it. The attack: a stranger posts a 500.00 payout to it. Proven
 * here against the real start-up path (`start()` of main.ts, in-process, on free ports and a
 * temporary DATA_DIR): with a real gateway `start` refuses to run without DEMO=1, `server` never
 * mounts the demo, and `start` listens on 127.0.0.1 only. The gateway is checked after each
 * attempt: no payout, no transaction.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, type Env } from '../../server/src/config.js';
import {
  type Started,
  type Stopping,
  start,
  startupFailureLine,
  stopAll,
} from '../../server/src/main.js';
import { copyNewDataFolder } from '../support/pglite-cache.js';
import {
  JWT_SECRET,
  MERCHANT_API_KEY,
  SANDBOX_TABLES,
  type Sandbox,
  scaled,
  snapshotTables,
  startSandbox,
} from './support/proof.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** A stranger's request: a 500.00 payout posted to the demo's relay, with no key of any kind. */
const PAYOUT = {
  body: {
    orderId: 'steal-1',
    amount: '500.00',
    currency: 'EUR',
    card: { number: '4242424242424242', holder: 'Mallory' },
  },
};

function postPayout(baseUrl: string) {
  return fetch(`${baseUrl}/demo/api/operation/payout`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(PAYOUT),
  });
}

/** Every transaction row of a sandbox whose client_orderid is the stranger's. */
async function stolen(sandbox: Sandbox['sandbox']): Promise<number> {
  const { rows } = await sandbox.store.db.query<{ n: number }>(
    `select count(*)::int as n from sandbox_transactions where client_orderid = 'steal-1'`,
  );
  return rows[0]?.n ?? -1;
}

/** A non-loopback IPv4 address of this machine, if it has one (a LAN neighbour's way in). */
function lanAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('the demo relay cannot move a real gateway’s money', () => {
  let gateway: Sandbox;
  let dataDir: string;
  let env: Env;

  before(async () => {
    // The "real" gateway: a sandbox on loopback, which the https rule lets through.
    gateway = await startSandbox();
    const dev = gateway.sandbox.devCredentials;
    assert.ok(dev);
    dataDir = await mkdtemp(join(tmpdir(), 'demo-exposure-'));
    env = {
      GATEWAY_URL: gateway.gatewayUrl,
      ENDPOINT_ID: dev.endpointId,
      MERCHANT_LOGIN: dev.login,
      MERCHANT_CONTROL_KEY: dev.controlKey,
      MERCHANT_PRIVATE_KEY_FILE: dev.privateKeyFile,
      MERCHANT_API_KEY,
      JWT_SECRET,
      PUBLIC_URL: 'http://localhost:3999',
      PORT: '0',
      // A folder that does not exist yet: start-up creates it (and its parents).
      DATA_DIR: join(dataDir, 'new', 'folder'),
      LOG_LEVEL: 'silent',
    };
  });
  after(async () => {
    await gateway.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('start with a real GATEWAY_URL and no DEMO=1: refused before anything listens', async () => {
    const before = await snapshotTables(gateway.sandbox.store.db, SANDBOX_TABLES);
    const stopping: Stopping = [];
    const refusal = await start('start', env, stopping).then(
      () => assert.fail('start ran the demo against a real gateway'),
      (error: unknown) => error,
    );
    assert.ok(refusal instanceof ConfigError);
    assert.equal(refusal.variable, 'DEMO');
    assert.equal(
      startupFailureLine(refusal),
      'Configuration error: DEMO: not set, and GATEWAY_URL is a real gateway: the demo shop would let anyone who reaches it capture, return and pay out with the merchant API key. Run `npm run server` for the backend alone, or set DEMO=1 to run the demo anyway',
    );
    assert.equal(stopping.length, 0, 'nothing was started');
    assert.deepEqual(await snapshotTables(gateway.sandbox.store.db, SANDBOX_TABLES), before);
  });

  it('the CLI says so in one line on stderr and exits 1 (no stack)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts', 'start'], {
      cwd: ROOT,
      env: { ...process.env, ...env, DEMO: '', DATABASE_URL: '', HOST: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), scaled(60_000));
    try {
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      assert.equal(code, 1, stderr);
      assert.equal(stdout, '');
      assert.equal(stderr.trimEnd().split('\n').length, 1, stderr);
      assert.match(
        stderr,
        /^Configuration error: DEMO: not set, and GATEWAY_URL is a real gateway/,
      );
    } finally {
      clearTimeout(timer);
      child.kill('SIGKILL');
    }
  });

  it('server with a real gateway never mounts the demo, even with DEMO=1: 404, no payout', async () => {
    const before = await snapshotTables(gateway.sandbox.store.db, SANDBOX_TABLES);
    const stopping: Stopping = [];
    try {
      const started: Started = await start('server', { ...env, DEMO: '1' }, stopping);
      assert.ok(started.backendUrl);
      // A deployment: every interface, as a load balancer or a published container port needs.
      assert.ok(['::', '0.0.0.0'].includes(started.backendAddress?.address ?? ''));
      assert.doesNotMatch(started.text, /Demo shop/);
      // The data folder did not exist: it was made, with the checkout store inside.
      assert.ok((await stat(join(dataDir, 'new', 'folder', 'checkout'))).isDirectory());

      const payout = await postPayout(started.backendUrl);
      assert.equal(payout.status, 404);
      assert.equal((await payout.json()).error.code, 'not-found');
      for (const path of ['/', '/index.html', '/tools.html', '/demo/api/test-cards']) {
        const res: Response = await fetch(`${started.backendUrl}${path}`);
        await res.body?.cancel();
        assert.equal(res.status, 404, path);
      }
      // The backend itself is up: the attack met a live server, not a dead port.
      assert.equal((await fetch(`${started.backendUrl}/healthz`)).status, 200);
    } finally {
      await stopAll(stopping);
    }
    await gateway.sandbox.idle();
    assert.equal(await stolen(gateway.sandbox), 0);
    assert.deepEqual(await snapshotTables(gateway.sandbox.store.db, SANDBOX_TABLES), before);
  });
});

describe('the demo with the embedded sandbox', () => {
  let dataDir: string;
  let env: Env;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'demo-embedded-'));
    // The one embedded database of `server` and `start` (DATA_DIR/pglite), already made.
    await copyNewDataFolder(join(dataDir, 'pglite'));
    env = {
      PORT: '0',
      SANDBOX_PORT: '0',
      DATA_DIR: dataDir,
      ALLOWED_ORIGINS: 'https://shop.example',
      PUBLIC_URL: 'http://localhost:3999',
      LOG_LEVEL: 'silent',
    };
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('server: no /demo route, no payout reached the sandbox; its pages framed only by our origins', async () => {
    const stopping: Stopping = [];
    try {
      const started = await start('server', { ...env, SANDBOX: '1' }, stopping);
      assert.ok(started.backendUrl && started.sandbox && started.sandboxUrl);
      const payout = await postPayout(started.backendUrl);
      assert.equal(payout.status, 404);
      assert.equal((await payout.json()).error.code, 'not-found');
      await started.sandbox.idle();
      assert.equal(await stolen(started.sandbox), 0);
      // The embedded sandbox's ACS pages: frameable by the backend and the merchant pages only.
      const page = await fetch(`${started.sandboxUrl}/paynet/acs/challenge`);
      await page.text();
      assert.match(
        page.headers.get('content-security-policy') ?? '',
        /; frame-ancestors 'self' http:\/\/localhost:3999 https:\/\/shop\.example$/,
      );
    } finally {
      await stopAll(stopping);
    }
  });

  it('start: the demo listens on 127.0.0.1 only, so the network cannot reach its relay', async () => {
    const stopping: Stopping = [];
    try {
      const started = await start('start', env, stopping);
      assert.ok(started.backendUrl && started.backendAddress);
      assert.equal(started.backendAddress.address, '127.0.0.1');
      assert.match(started.text, /listening on 127\.0\.0\.1, port \d+/);
      // Locally the demo works (it is the developer's own tool)...
      const cards = await fetch(`${started.backendUrl}/demo/api/test-cards`);
      assert.equal(cards.status, 200);
      assert.ok(((await cards.json()) as unknown[]).length > 5);
      // ...and from the machine's network address nothing answers on that port.
      const lan = lanAddress();
      if (lan) assert.equal(await connects(lan, started.backendAddress.port), false, lan);
      // A page on another site whose name resolves to 127.0.0.1 (DNS rebinding) reaches the
      // port, but the relay answers only its own host names: 421, no payout.
      const port = started.backendAddress.port;
      const rebound = await new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/demo/api/operation/payout',
            method: 'POST',
            headers: { Host: `attacker.example:${port}`, 'Content-Type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.once('error', reject);
        req.end(JSON.stringify(PAYOUT));
      });
      assert.equal(rebound, 421);
      await started.sandbox?.idle();
      assert.equal(started.sandbox ? await stolen(started.sandbox) : -1, 0);
    } finally {
      await stopAll(stopping);
    }
  });
});
