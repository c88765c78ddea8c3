/**
 * Test stack: the sandbox gateway and the companion backend on real loopback HTTP (so the
 * sandbox's callbacks and our return pages travel like in production), each in a schema of its
 * own on the test process's one in-memory PGlite (test/support/memory-schemas.ts) unless a
 * database or store is given. Logs are captured for the no-card-data searches.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before } from 'node:test';
import type { CheckoutApp, CheckoutDeps } from '../../server/src/checkout/app.js';
import { createCheckoutApp } from '../../server/src/checkout/app.js';
import type { Timing } from '../../server/src/checkout/context.js';
import { createLogger } from '../../server/src/checkout/logger.js';
import type { CheckoutConfig } from '../../server/src/config.js';
import {
  createSandboxApp,
  type SandboxApp,
  type SandboxOptions,
} from '../../server/src/sandbox/index.js';
import type { CheckoutStore } from '../../server/src/store/index.js';
import { memoryCheckoutStore, withSandboxSchema } from './memory-schemas.js';
import { AnswerChecker } from './openapi-answers.js';
import { scaled } from './time-scale.js';

export const MERCHANT_API_KEY = 'test-merchant-api-key-0123456789';
export const JWT_SECRET = 'test-jwt-secret-0123456789-0123456789-abcdef';
export const MERCHANT_ORIGIN = 'https://shop.example';

export const FAST_TIMING: Partial<Timing> = {
  pollMinMs: 40,
  pollMaxMs: 150,
  browserStepPollMs: 150,
  longPollMaxMs: 3_000,
  // Limits (not delays): scaled, so that a busy machine's slow answer is not taken for none.
  operationFollowMs: scaled(3_000),
  webhookBackoffMs: 20,
  webhookTimeoutMs: scaled(2_000),
};

export async function listen(
  handler?: Parameters<typeof createServer>[1],
  port = 0,
): Promise<{ server: Server; url: string }> {
  const server = handler ? createServer(handler) : createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${address.port}` };
}

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export interface Sandbox {
  sandbox: SandboxApp;
  server: Server;
  origin: string;
  gatewayUrl: string;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await createSandboxApp({
    processingDelayMs: 20,
    callbacks: { baseDelayMs: 50, maxAttempts: 3, timeoutMs: scaled(2_000) },
    ...(await withSandboxSchema(options)),
  });
  const { server, url } = await listen(sandbox.app);
  return {
    sandbox,
    server,
    origin: url,
    gatewayUrl: `${url}${sandbox.basePath}`,
    async close() {
      await closeServer(server);
      await sandbox.close();
    },
  };
}

/**
 * The gateway config of the sandbox's dev merchant at another gateway address: a gateway written
 * in a test, signing with the same credentials.
 */
export function devMerchantAt(sb: Sandbox, gatewayUrl: string): CheckoutConfig['gateway'] {
  const dev = sb.sandbox.devCredentials;
  if (!dev) throw new Error('the sandbox runs without its dev merchant');
  return {
    url: gatewayUrl,
    endpointId: dev.endpointId,
    login: dev.login,
    controlKey: dev.controlKey,
    privateKeyFile: dev.privateKeyFile,
  };
}

export interface Backend {
  checkout: CheckoutApp;
  store: CheckoutStore;
  server: Server;
  url: string;
  config: CheckoutConfig;
  logs: string[];
  /** Checks every merchant API answer against the OpenAPI document (none with `checkAnswers: false`). */
  answers: AnswerChecker | undefined;
  /** Closes it; then fails if an answer was not what the document says (openapi-answers.ts). */
  close(): Promise<void>;
}

export interface BackendOptions extends Partial<Omit<CheckoutDeps, 'store'>> {
  store?: CheckoutStore;
  config?: Partial<CheckoutConfig>;
  /** Listen on this port (a restarted instance keeps its public URL). */
  port?: number;
  /** Check merchant API answers against the document (default true). */
  checkAnswers?: boolean;
}

export async function startBackend(sb: Sandbox, options: BackendOptions = {}): Promise<Backend> {
  const ownsStore = !options.store;
  const store = options.store ?? (await memoryCheckoutStore());
  const { server, url } = await listen(undefined, options.port ?? 0);
  const config: CheckoutConfig = {
    gateway: devMerchantAt(sb, sb.gatewayUrl),
    merchantApiKey: MERCHANT_API_KEY,
    jwtSecret: JWT_SECRET,
    publicUrl: url,
    allowedOrigins: [MERCHANT_ORIGIN],
    logLevel: 'debug',
    ...options.config,
  };
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ level: 'debug', destination });
  const { config: _c, store: _s, port: _p, checkAnswers = true, ...deps } = options;
  const checkout = createCheckoutApp(config, {
    logger,
    background: false,
    ...deps,
    store,
    timing: { ...FAST_TIMING, ...options.timing },
  });
  let answers: AnswerChecker | undefined;
  // Before the app's listener, so that it sees what the app writes.
  server.on('request', (req, res) => answers?.watch(req, res));
  server.on('request', checkout.app);
  if (checkAnswers) answers = await AnswerChecker.load(url);
  return {
    answers,
    checkout,
    store,
    server,
    url,
    config,
    logs,
    async close() {
      await checkout.close();
      await closeServer(server);
      if (ownsStore) await store.close();
      if (answers?.violations.length) {
        throw new Error(
          `merchant API answers not in its OpenAPI document:\n${answers.violations.join('\n')}`,
        );
      }
    },
  };
}

/**
 * A sandbox and a backend for the enclosing suite: started before its tests (then handed to
 * `use`, which keeps what it needs), closed after them.
 */
export function withSandboxAndBackend(
  use: (started: { sb: Sandbox; be: Backend }) => void,
  backendOptions: BackendOptions = {},
): void {
  let started: { sb: Sandbox; be: Backend } | undefined;
  before(async () => {
    const sb = await startSandbox();
    started = { sb, be: await startBackend(sb, backendOptions) };
    use(started);
  });
  after(async () => {
    try {
      await started?.be.close();
    } finally {
      await started?.sb.close();
    }
  });
}
