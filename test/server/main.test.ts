/** main.ts: start-up creates its data folders, and any failure is one line. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError } from '../../server/src/config.js';
import { type Stopping, start, startupFailureLine, stopAll } from '../../server/src/main.js';
import { SandboxConfigError } from '../../server/src/sandbox/index.js';
import { copyNewDataFolder } from '../support/pglite-cache.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** `server` on 127.0.0.1, free ports, DATA_DIR `root`, with the sandbox asked for by name. */
const sandboxServer = (root: string) => ({
  DATA_DIR: root,
  PORT: '0',
  SANDBOX_PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  SANDBOX: '1',
});

describe('main', () => {
  it('sandbox with DATA_DIR in folders that do not exist yet: creates them and starts', async () => {
    const root = await mkdtemp(join(tmpdir(), 'main-test-'));
    const stopping: Stopping = [];
    try {
      const dataDir = join(root, 'new', 'folder');
      // A configured merchant: no dev key pair is written, so nothing else makes the folder.
      // GATEWAY_URL too, as in a .env shared with the backend: the sandbox calls no gateway.
      const started = await start(
        'sandbox',
        {
          DATA_DIR: dataDir,
          SANDBOX_PORT: '0',
          GATEWAY_URL: 'https://gateway.example/paynet',
          ENDPOINT_ID: '42',
          MERCHANT_LOGIN: 'shop',
          MERCHANT_CONTROL_KEY: 'control-key-of-shop',
          LOG_LEVEL: 'silent',
        },
        stopping,
      );
      assert.ok((await stat(join(dataDir, 'sandbox'))).isDirectory());
      assert.match(started.sandboxUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.match(started.text, /^Sandbox gateway: http:\/\/127\.0\.0\.1:\d+\/paynet$/m);
      const cards = await fetch(`${started.sandboxUrl}/sandbox/test-cards`);
      assert.equal(cards.status, 200);
      await cards.body?.cancel();
    } finally {
      await stopAll(stopping);
      await rm(root, { recursive: true, force: true });
    }
  });

  it('server: the backend is createPayCheckout at the root of its own listener', async () => {
    const root = await mkdtemp(join(tmpdir(), 'main-test-'));
    const stopping: Stopping = [];
    try {
      // A data folder made earlier (the first start of one is the test above).
      await copyNewDataFolder(join(root, 'pglite'));
      const started = await start('server', sandboxServer(root), stopping);
      // One embedded database for the backend and its sandbox, each in its own schema; the
      // sandbox's folder keeps only its dev merchant's key pair.
      assert.ok((await stat(join(root, 'pglite', 'PG_VERSION'))).isFile());
      assert.deepEqual((await readdir(root)).sort(), ['dev-secrets.json', 'pglite', 'sandbox']);
      assert.equal(existsSync(join(root, 'sandbox', 'PG_VERSION')), false);
      const schema = await started.sandbox?.store.db.query('select current_schema() as s');
      assert.deepEqual(schema?.rows, [{ s: 'sandbox' }]);
      assert.equal(await started.sandbox?.store.useNonce('main-test', 'n-1', 1, 60_000), true);
      assert.match(
        started.text,
        /store: +PGlite in .*pglite \(schema checkout; the sandbox's: sandbox\)/,
      );
      // The sandbox, asked for by name, says so everywhere: readiness, the banner, the orders.
      const ready = await fetch(`${started.backendUrl}/readyz`);
      assert.equal(ready.status, 200);
      assert.equal(((await ready.json()) as { gateway: string }).gateway, 'sandbox');
      assert.match(
        started.text,
        /gateway: +http:\/\/127\.0\.0\.1:\d+\/paynet {2}\(SANDBOX: test mode/,
      );
      // DATA_DIR is its user's alone: every folder 0700, so no other user reaches a file in it
      // (PGlite gives the files it creates later modes of its own; the next start tightens them).
      const loose: string[] = [];
      for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
        const path = join(entry.parentPath, entry.name);
        if (entry.isDirectory() && ((await stat(path)).mode & 0o777) !== 0o700) loose.push(path);
      }
      assert.deepEqual([(await stat(root)).mode & 0o777, loose], [0o700, []]);
      const health = await fetch(`${started.backendUrl}/healthz`);
      assert.equal(health.status, 200);
      await health.body?.cancel();
      const unknown = await fetch(`${started.backendUrl}/nowhere`);
      assert.equal(unknown.status, 404);
      assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'not-found');
      await stopAll(stopping);
      // Stopped: the listener is closed.
      await assert.rejects(fetch(`${started.backendUrl}/healthz`));
      // --fresh: the shared database starts empty; the dev secrets stay.
      const secrets = await readFile(join(root, 'dev-secrets.json'), 'utf8');
      const again = await start('server', sandboxServer(root), stopping, { fresh: true });
      assert.ok(again.text.startsWith(`Starting clean: removed the embedded data in ${root}.\n`));
      assert.equal(await again.sandbox?.store.useNonce('main-test', 'n-1', 2, 60_000), true);
      assert.equal(await readFile(join(root, 'dev-secrets.json'), 'utf8'), secrets);
    } finally {
      await stopAll(stopping);
      await rm(root, { recursive: true, force: true });
    }
  });

  it('server: a slow client is cut off, and connections beyond the cap are dropped', async () => {
    const root = await mkdtemp(join(tmpdir(), 'main-test-'));
    const stopping: Stopping = [];
    try {
      await copyNewDataFolder(join(root, 'pglite'));
      const started = await start(
        'server',
        { ...sandboxServer(root), REQUEST_TIMEOUT_SECONDS: '1', MAX_CONNECTIONS: '2' },
        stopping,
      );
      const { port } = started.backendAddress as { port: number };
      const open = () =>
        new Promise<Socket>((resolve) => {
          // Flowing: a socket whose data nobody reads never sees the server's end.
          const socket = connect(port, '127.0.0.1', () => resolve(socket)).resume();
        });
      const closedWithin = (socket: Socket, ms: number) =>
        new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), ms);
          socket.once('close', () => {
            clearTimeout(timer);
            resolve(true);
          });
        });
      // Headers trickled and never finished: dropped once the request timeout has passed.
      const slow = await open();
      slow.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      assert.equal(await closedWithin(slow, 4_000), true, 'the slow client was cut off');
      // Two connections open: a third is over the cap, closed at once, before any timeout.
      const held = [await open(), await open()];
      const third = await open();
      assert.equal(await closedWithin(third, 500), true, 'beyond MAX_CONNECTIONS');
      for (const socket of held) socket.destroy();
    } finally {
      await stopAll(stopping);
      await rm(root, { recursive: true, force: true });
    }
  });

  it('server without a gateway refuses to start unless the sandbox is asked for by name', async () => {
    const stopping: Stopping = [];
    // A secrets mount that failed: every gateway variable gone, the rest as in production.
    const env = {
      PORT: '0',
      PUBLIC_URL: 'https://shop.example/pay',
      MERCHANT_API_KEY: 'merchant-api-key-0123456789',
      JWT_SECRET: 'jwt-secret-0123456789-0123456789-0123456789',
      LOG_LEVEL: 'silent',
    };
    await assert.rejects(
      start('server', env, stopping),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.variable === 'GATEWAY_URL' &&
        /SANDBOX=1 to run the sandbox on purpose/.test(error.message),
    );
    assert.equal(stopping.length, 0);
    await assert.rejects(
      start(
        'server',
        { ...env, SANDBOX: '1', GATEWAY_URL: 'https://gate.example.com/p' },
        stopping,
      ),
      (error: unknown) => error instanceof ConfigError && error.variable === 'SANDBOX',
    );
    assert.equal(stopping.length, 0);
  });

  it('a configuration mistake stops start-up before anything runs', async () => {
    const stopping: Stopping = [];
    await assert.rejects(
      start('server', { GATEWAY_URL: 'http://gate.example.com/paynet' }, stopping),
      (error: unknown) => error instanceof ConfigError && error.variable === 'ENDPOINT_ID',
    );
    assert.equal(stopping.length, 0);
  });

  it('npm start runs main.ts from a bundle of the sources, kept for the next start', async () => {
    const root = await mkdtemp(join(tmpdir(), 'main-test-'));
    try {
      const run = () =>
        new Promise<{ code: number | null; stderr: string }>((resolvePromise) => {
          execFile(
            process.execPath,
            [join(ROOT, 'scripts/start.mjs'), 'sandbox'],
            { cwd: root, env: { ...process.env, DATA_DIR: root, SANDBOX_PORT: 'x' } },
            (error, _stdout, stderr) =>
              resolvePromise({ code: error ? (error.code as number) : 0, stderr }),
          );
        });
      // The bundled start-up runs as the sources do: the same one line for a mistake.
      const first = await run();
      assert.deepEqual(first, {
        code: 1,
        stderr: 'Configuration error: SANDBOX_PORT: must be a port number\n',
      });
      const clone = createHash('sha256').update(ROOT).digest('hex').slice(0, 12);
      const cache = join(ROOT, 'node_modules/.cache/pay-checkout', `start-${clone}`);
      const bundles = await readdir(cache);
      const bundle = bundles.find((name) => /^[0-9a-f]{16}$/.test(name));
      assert.ok(bundle && existsSync(join(cache, bundle, 'main.js')), bundles.join(', '));
      assert.ok(existsSync(join(cache, bundle, 'main.js.map')));
      // Unchanged sources: the next start finds the same bundle.
      assert.deepEqual(await run(), first);
      assert.ok(existsSync(join(cache, bundle, 'main.js')));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('every start-up failure is one line', () => {
    assert.equal(
      startupFailureLine(new ConfigError('PORT', 'must be a port number')),
      'Configuration error: PORT: must be a port number',
    );
    assert.equal(
      startupFailureLine(new SandboxConfigError('SANDBOX_DEV_MODE must be true or false')),
      'Configuration error: SANDBOX_DEV_MODE must be true or false',
    );
    const enoent = Object.assign(
      new Error("ENOENT: no such file or directory, mkdir '/x/checkout'"),
      { code: 'ENOENT' },
    );
    assert.equal(
      startupFailureLine(enoent),
      "Start-up failed: ENOENT: no such file or directory, mkdir '/x/checkout'",
    );
    assert.equal(
      startupFailureLine(new Error('first line\n    at somewhere (file.ts:1:1)')),
      'Start-up failed: first line',
    );
    // A connection refused on every address: an AggregateError with no message of its own.
    const refused = Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' });
    assert.equal(startupFailureLine(refused), 'Start-up failed: ECONNREFUSED');
    assert.equal(startupFailureLine('odd'), 'Start-up failed: odd');
  });
});
