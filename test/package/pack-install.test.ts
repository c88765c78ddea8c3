/**
 * The published package, as a merchant gets it: `npm pack` (prepack builds), the tarball installed
 * offline into an empty folder, then a small consumer that imports `pay-checkout`,
 * `pay-checkout/server` and `pay-checkout/client` type-checks (with `@ts-expect-error` lines that
 * fail if any entry's types were missing, i.e. `any`) and the two Node entries run.
 *
 * Offline: `npm ci` left the dependencies' tarballs in the npm cache but not their registry
 * metadata, so `npm install --offline <tarball>` stops at ENOTCACHED. The consumer therefore gets
 * a lockfile made of the project's own production entries plus the tarball, and `npm ci
 * --offline` installs from the cache by integrity; `npm ls --all` then checks that what the
 * tarball's package.json asks for is what got installed. What it installs is the production
 * dependencies only (as `npm ci --omit=dev` would): the package's bin then runs the compiled
 * backend on plain Node, no tsx, and serves a payment against the sandbox asked for by name.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { APPROVED_CARD_INPUT, BROWSER } from '../support/fixtures.js';
import { scaled } from '../support/time-scale.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');

interface LockEntry {
  dev?: boolean;
  devOptional?: boolean;
  link?: boolean;
  [key: string]: unknown;
}

const CONSUMER_TS = `
import { PayCheckoutElement, type NextAction } from 'pay-checkout';
import {
  ConfigError,
  createPayCheckout,
  type PayCheckout,
  type PayCheckoutOptions,
  SIGNATURE_HEADER,
  verifyWebhook,
  type WebhookEvent,
} from 'pay-checkout/server';
import {
  type CheckoutSession,
  type CheckoutSessionInfo,
  createMerchantClient,
  type MerchantClient,
  MerchantApiError,
  type Order,
} from 'pay-checkout/client';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const options: PayCheckoutOptions = {
  gateway: { url: 'https://gate.example.com/paynet', endpointId: '1', login: 'shop', controlKey: 'k' },
  merchantApiKey: 'merchant-api-key-0123456789',
  jwtSecret: 'jwt-secret-0123456789-0123456789-abcdef',
  publicUrl: 'https://shop.example/pay',
  database: { url: 'postgres://db.example/shop' },
};
export const build = (): PayCheckout => createPayCheckout(options);
export const mount = (pay: PayCheckout): ((req: IncomingMessage, res: ServerResponse, next: () => void) => void) =>
  pay.router;
// @ts-expect-error database is required
createPayCheckout({ ...options, database: undefined });
export const header: string = SIGNATURE_HEADER;
export const verified: boolean = verifyWebhook(new Uint8Array(), 't=1,v1=00', 'secret', { toleranceSeconds: 60 });
// @ts-expect-error the secret is a string
verifyWebhook('{}', 't=1,v1=00', 42);
export const isConfigError = (e: unknown): string | undefined => (e instanceof ConfigError ? e.variable : undefined);
export type Event = WebhookEvent['type'];

export async function flow(api: MerchantClient = createMerchantClient({ baseUrl: 'https://shop.example/pay', apiKey: 'k' })) {
  const session: CheckoutSession = await api.createSession({
    amount: '1.00', currency: 'EUR', orderId: 'o-1', description: 'd',
    customer: { email: 'a@b.example', address1: '1 Main St', city: 'London', zipCode: 'N1 9GU', country: 'GB', phone: '+441234567890' },
  });
  const order: Order = await api.getOrder('o-1');
  const status:
    | 'awaiting-payment' | 'expired' | 'new' | 'processing' | 'unknown'
    | 'approved' | 'declined' | 'error' | 'filtered' = order.status;
  const read: CheckoutSessionInfo = await api.getSession(session.id);
  const state: 'open' | 'paying' | 'completed' | 'cancelled' | 'expired' = read.state;
  // @ts-expect-error a session read never carries the token
  read.token;
  await api.expireSession(session.id);
  // @ts-expect-error amounts are decimal strings
  await api.capture('o-1', { amount: 4.2 });
  // @ts-expect-error no such order status
  await api.listOrders({ status: 'paid' });
  try { await api.refund('o-1'); } catch (e) { if (e instanceof MerchantApiError) return e.field; }
  return [session.token, session.orderId, status, state];
}

export function widget(el: PayCheckoutElement, next: NextAction): string {
  el.backend = '/pay';
  // @ts-expect-error backend is a string
  el.backend = 42;
  return next.action;
}
`;

const CONSUMER_RUN = `
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { ConfigError, createPayCheckout, verifyWebhook } from 'pay-checkout/server';
import { createMerchantClient } from 'pay-checkout/client';
assert.throws(
  () => createPayCheckout({ publicUrl: 'https://shop.example/pay' }),
  (e) => e instanceof ConfigError && e.variable === 'gateway',
);
const t = Math.floor(Date.now() / 1000);
const mac = createHmac('sha256', 'whsec-0123456789abcdef').update(t + '.{"a":1}').digest('hex');
assert.equal(verifyWebhook('{"a":1}', 't=' + t + ',v1=' + mac, 'whsec-0123456789abcdef'), true);
assert.equal(typeof createMerchantClient({ baseUrl: 'https://x.example', apiKey: 'k' }).getOrder, 'function');
console.log('consumer ran');
`;

describe('npm pack: the tarball installs offline and offers three typed entry points', () => {
  let dir: string;
  let consumer: string;
  let files: string[];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pack-install-'));
    consumer = join(dir, 'consumer');
    await mkdir(consumer);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('npm pack builds and packs the widget, the backend and the client, no sources or tests', async () => {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    // prepack's build prints before the JSON.
    const packed = JSON.parse(stdout.slice(stdout.indexOf('\n[') + 1)) as [
      { filename: string; files: { path: string }[] },
    ];
    files = packed[0].files.map((f) => f.path);
    for (const path of [
      'package.json',
      'dist/esm/widget/src/pay-checkout.js',
      'dist/esm/widget/src/pay-checkout.d.ts',
      'dist/node/server/src/index.js',
      'dist/node/server/src/index.d.ts',
      'dist/node/server/src/client/merchant-client.js',
      'dist/node/server/src/client/merchant-client.d.ts',
      'dist/node/server/src/main.js',
      'bin/pay-checkout.mjs',
    ])
      assert.ok(files.includes(path), `${path} is in the tarball`);
    assert.deepEqual(
      files.filter(
        (f) =>
          /^(server|test|widget|contract|demo|scripts|data)\//.test(f) ||
          (f.endsWith('.ts') && !f.endsWith('.d.ts')),
      ),
      [],
    );
    // The CLI and the sandbox ship for the bin (`npx pay-checkout server | sandbox`); the demo
    // shop, a development page of the repository, does not.
    assert.deepEqual(
      files.filter((f) => f.startsWith('dist/node/demo/')),
      [],
    );
    assert.equal(packed[0].filename, 'pay-checkout-0.1.0.tgz');
  });

  it('installs offline into an empty folder', async () => {
    const tarball = 'file:../pay-checkout-0.1.0.tgz';
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
    const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, LockEntry>;
    };
    const packages: Record<string, unknown> = {
      '': { name: 'consumer', dependencies: { 'pay-checkout': tarball } },
      'node_modules/pay-checkout': {
        version: pkg.version,
        resolved: tarball,
        license: pkg.license,
        bin: pkg.bin,
        dependencies: pkg.dependencies,
        engines: pkg.engines,
      },
    };
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (!path || entry.dev || entry.link) continue;
      const { devOptional: _d, ...kept } = entry;
      packages[path] = kept;
    }
    await writeFile(
      join(consumer, 'package.json'),
      JSON.stringify({
        name: 'consumer',
        private: true,
        type: 'module',
        dependencies: { 'pay-checkout': tarball },
      }),
    );
    await writeFile(
      join(consumer, 'package-lock.json'),
      JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }),
    );
    await run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: consumer,
    });
    // Every dependency the installed package.json files ask for is there, at a matching version.
    await run('npm', ['ls', '--all', '--offline'], { cwd: consumer, maxBuffer: 16 * 1024 * 1024 });
    const installed = JSON.parse(
      await readFile(join(consumer, 'node_modules', 'pay-checkout', 'package.json'), 'utf8'),
    );
    assert.deepEqual(Object.keys(installed.exports).slice(0, 3), ['.', './server', './client']);
  });

  it('a consumer importing all three entry points type-checks, and the Node entries run', async () => {
    await writeFile(join(consumer, 'consumer.ts'), CONSUMER_TS);
    await writeFile(join(consumer, 'run.mjs'), CONSUMER_RUN);
    await writeFile(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          // The consumer's own @types/node; the project's stands in for it here.
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['consumer.ts'],
      }),
    );
    const checked = await run(TSC, ['-p', 'tsconfig.json'], { cwd: consumer }).catch(
      (error: { stdout?: string }) => assert.fail(`tsc: ${error.stdout}`),
    );
    assert.equal(checked.stdout, '');
    const ran = await run(process.execPath, ['run.mjs'], { cwd: consumer });
    assert.equal(ran.stdout, 'consumer ran\n');
  });

  it('npx pay-checkout server, without dev dependencies, serves a payment against the sandbox by name', async () => {
    const modules = join(consumer, 'node_modules');
    for (const dev of ['tsx', 'esbuild', 'typescript', 'vite'])
      assert.equal(existsSync(join(modules, dev)), false, `${dev} is not installed`);
    const [port, sandboxPort] = [await freePort(), await freePort()];
    const backend = `http://127.0.0.1:${port}`;
    const apiKey = 'pack-merchant-api-key-0123456789';
    const child = spawn(join(modules, '.bin', 'pay-checkout'), ['server'], {
      cwd: consumer,
      env: {
        PATH: process.env.PATH,
        SANDBOX: '1',
        PORT: String(port),
        SANDBOX_PORT: String(sandboxPort),
        HOST: '127.0.0.1',
        PUBLIC_URL: backend,
        ALLOWED_ORIGINS: 'https://shop.example',
        MERCHANT_API_KEY: apiKey,
        JWT_SECRET: 'pack-jwt-secret-0123456789-0123456789-abcdef',
        DATA_DIR: join(dir, 'data'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => {
      output += c;
    });
    child.stderr.on('data', (c) => {
      output += c;
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const ready = await until(
        async () => {
          const res = await fetch(`${backend}/readyz`).catch(() => undefined);
          return res?.ok ? ((await res.json()) as { gateway: string }) : undefined;
        },
        () => output,
      );
      assert.equal(ready.gateway, 'sandbox');
      const json = async (
        path: string,
        init: RequestInit = {},
        // biome-ignore lint/suspicious/noExplicitAny: the test reads arbitrary JSON answers
      ): Promise<{ status: number; body: any }> => {
        const res = await fetch(`${backend}${path}`, init);
        return { status: res.status, body: await res.json() };
      };
      const created = await json('/v1/checkout-sessions', {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          amount: '10.42',
          currency: 'EUR',
          orderId: `pack-${Date.now()}`,
          description: 'Pack test',
          customer: {
            email: 'a@b.example',
            address1: '1 Main St',
            city: 'London',
            zipCode: 'N1 9GU',
            country: 'GB',
            phone: '+441234567890',
          },
        }),
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const widget = {
        Authorization: `Bearer ${created.body.token}`,
        Origin: 'https://shop.example',
        'Content-Type': 'application/json',
      };
      let action = await json('/widget/pay', {
        method: 'POST',
        headers: widget,
        body: JSON.stringify({
          card: APPROVED_CARD_INPUT,
          browser: BROWSER,
        }),
      });
      for (let i = 0; i < 10 && action.body.action === 'wait'; i++)
        action = await json('/widget/next?wait=5', { headers: widget });
      assert.equal(action.body.action, 'final', JSON.stringify(action.body));
      assert.equal(action.body.order.status, 'approved');
      const order = await json(`/v1/orders/${created.body.orderId}`, {
        headers: { Authorization: `Bearer ${apiKey}` },
      });
      assert.deepEqual([order.body.status, order.body.livemode], ['approved', false]);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function until<T>(probe: () => Promise<T | undefined>, log: () => string): Promise<T> {
  const end = Date.now() + scaled(60_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) assert.fail(`the backend never got ready: ${log()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
