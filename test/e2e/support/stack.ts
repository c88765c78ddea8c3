/**
 * The whole product as QA runs it: `server/src/main.ts start` in a child process (sandbox,
 * companion backend and demo shop), on free ports, with a fresh data folder. The end-to-end suite
 * drives it through a real browser, so what passes here is what `npm start` shows a person.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWidgetBuilt } from '../../../server/src/widget-build.js';
import { copyNewDataFolder } from '../../support/pglite-cache.js';
import { scaled } from '../../support/time-scale.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
export const MERCHANT_API_KEY = 'e2e_merchant_api_key_0123456789';
const JWT_SECRET = 'e2e-jwt-secret-0123456789-0123456789-0123456789';
/** `GET /metrics` of the stack's backend takes it. */
export const METRICS_TOKEN = 'e2e_metrics_token_0123456789';

export interface Stack {
  /** The demo shop and the companion backend (one origin, like a merchant's site). */
  shopUrl: string;
  /** The sandbox gateway (another origin, as the real gateway and ACS pages are). */
  sandboxUrl: string;
  /** Everything the processes printed, for diagnosing a failure. */
  output(): string;
  /** Merchant API call with the key, as the merchant's server makes it. */
  merchantApi(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }>;
  /** SIGKILL, for crash tests: no graceful shutdown at all. */
  kill(): void;
  /** Starts the same stack again on the same ports and data folder. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface StackOptions {
  /** Merchant pages on other origins (e.g. a test's own shop server) that may use the backend. */
  extraOrigins?: string[];
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  // Built here, once, rather than inside the first start's time limit.
  await ensureWidgetBuilt(ROOT);
  const dataDir = await mkdtemp(join(tmpdir(), 'pay-checkout-e2e-'));
  // DATA_DIR/pglite: the one database of `start` with its embedded sandbox (backendPgliteFolder).
  await copyNewDataFolder(join(dataDir, 'pglite'));
  let sandboxPort = 0;
  let shopUrl = '';
  let env: NodeJS.ProcessEnv = {};
  /** Two free ports for the stack (again when another process took one before the stack bound it). */
  const pickPorts = async () => {
    const port = await freePort();
    sandboxPort = await freePort();
    shopUrl = `http://localhost:${port}`;
    env = {
      ...process.env,
      PORT: String(port),
      SANDBOX_PORT: String(sandboxPort),
      PUBLIC_URL: shopUrl,
      ALLOWED_ORIGINS: [shopUrl, ...(options.extraOrigins ?? [])].join(','),
      DATA_DIR: dataDir,
      MERCHANT_API_KEY,
      JWT_SECRET,
      METRICS_TOKEN,
      LOG_LEVEL: 'warn',
      GATEWAY_URL: '',
      DATABASE_URL: '',
    };
  };
  let log = '';
  let child: ChildProcess | undefined;

  const launch = () =>
    new Promise<void>((resolve, reject) => {
      // The flags of `npm start` (package.json).
      const args = ['--liftoff-only', '--import', 'tsx', 'server/src/main.ts', 'start'];
      const proc = spawn(process.execPath, args, {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = proc;
      const timer = setTimeout(
        () => reject(new Error(`the stack did not start:\n${log}`)),
        scaled(60_000),
      );
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('Demo shop:')) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout?.on('data', onData);
      proc.stderr?.on('data', (chunk: Buffer) => {
        log += chunk.toString();
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the stack exited with ${code}:\n${log}`));
      });
    });

  const exited = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });

  // A free port is free only until someone binds it: on a busy machine another process's outgoing
  // connection may take it first (it is an ephemeral port). Then the stack starts on two others;
  // a restart keeps the ports the shoppers already use.
  for (let tries = 1; ; tries++) {
    await pickPorts();
    try {
      await launch();
      break;
    } catch (error) {
      if (tries >= 3 || !/is already in use/.test(String(error))) throw error;
      log = '';
    }
  }
  return {
    shopUrl,
    sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
    output: () => log,
    async merchantApi(method, path, body) {
      const response = await fetch(new URL(path, shopUrl), {
        method,
        headers: {
          authorization: `Bearer ${MERCHANT_API_KEY}`,
          'content-type': 'application/json',
          ...(method === 'POST' ? { 'idempotency-key': crypto.randomUUID() } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    kill() {
      child?.kill('SIGKILL');
    },
    async restart() {
      await exited();
      await launch();
    },
    async stop() {
      child?.kill('SIGTERM');
      await exited();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
