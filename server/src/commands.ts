/**
 * What each command of main.ts starts: the listeners, the stores, the embedded sandbox, the demo.
 * main.ts loads this module only once it has begun what can begin first (a new embedded
 * database's initialisation), so that loading the app does not wait for it or delay it.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import helmet from 'helmet';
import {
  backendPgliteFolder,
  type Command,
  ConfigError,
  type Env,
  listenHost,
  type ServerConfig,
} from './config.js';
import { createPayCheckout } from './library/pay-checkout.js';
import {
  createSandboxApp,
  describeSandbox,
  type SandboxApp,
  sandboxOptionsFromEnv,
} from './sandbox/index.js';
import {
  type CheckoutStore,
  createCheckoutStore,
  type Database,
  migrateCheckoutStore,
  openSharedPGlite,
  type SharedPGlite,
} from './store/index.js';
import { ensureWidgetBuilt, widgetBundlePath } from './widget-build.js';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHUTDOWN_GRACE_MS = 10_000;
const SANDBOX_HOST = '127.0.0.1';

/** What start() leaves for its shutdown to undo, in start order (run in reverse). */
export type Stopping = Array<() => Promise<void>>;

/** A running command: what it prints, and the handles tests reach it by. */
export interface Started {
  text: string;
  /** The backend as this machine reaches it, and the address it listens on (not for `sandbox`). */
  backendUrl?: string;
  backendAddress?: AddressInfo;
  /** The sandbox's origin (`http://127.0.0.1:4000`) and handle, when this command runs one. */
  sandboxUrl?: string;
  sandbox?: SandboxApp;
}

/**
 * Listens, or fails with one line naming the variable behind the failure: the port already in
 * use or not allowed, or a HOST this machine has no address for.
 */
function listen(
  app: RequestListener,
  port: number,
  portVariable: string,
  host: string | undefined,
): Promise<Server> {
  // Request and header timeouts are enforced at this interval (Node's default: 30 s).
  const server = createServer({ connectionsCheckingInterval: 1_000 }, app);
  return new Promise((resolvePromise, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new ConfigError(
            portVariable,
            `port ${port} is already in use; stop the other process or choose another port`,
          ),
        );
      else if (error.code === 'EACCES')
        reject(new ConfigError(portVariable, `port ${port} needs privileges this process lacks`));
      else if (['EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN'].includes(error.code ?? ''))
        reject(new ConfigError('HOST', `${host} is not an address of this machine`));
      else reject(error);
    });
    server.listen(port, host, () => resolvePromise(server));
  });
}

/** `http://host:port` as a process on this machine reaches a server listening on `host`. */
function localUrl(server: Server, host: string | undefined): string {
  const { port } = server.address() as AddressInfo;
  const reachable = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** Stops accepting, lets requests in flight finish, then cuts idle keep-alive connections. */
function closeGracefully(server: Server): Promise<void> {
  return new Promise((resolvePromise) => {
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolvePromise();
    });
    server.closeIdleConnections();
  });
}

/** DATA_DIR/name, created with its parents (PGlite creates only the last folder). */
async function dataFolder(config: ServerConfig, name: string): Promise<string> {
  const folder = join(config.dataDir, name);
  await mkdir(folder, { recursive: true });
  return folder;
}

interface DevSecrets {
  merchantApiKey: string;
  jwtSecret: string;
}

/** Generated once for sandbox development and kept in DATA_DIR so they survive restarts. */
async function devSecrets(dataDir: string): Promise<DevSecrets> {
  const file = join(dataDir, 'dev-secrets.json');
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as Partial<DevSecrets>;
    if (saved.merchantApiKey && saved.jwtSecret)
      return { merchantApiKey: saved.merchantApiKey, jwtSecret: saved.jwtSecret };
  } catch {}
  const secrets = {
    merchantApiKey: `dev_${randomBytes(24).toString('base64url')}`,
    jwtSecret: randomBytes(48).toString('base64url'),
  };
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  await chmod(file, 0o600);
  return secrets;
}

/**
 * Starts a sandbox on 127.0.0.1 with its data in DATA_DIR/sandbox (so a restarted sandbox
 * remembers its transactions), registers its shutdown, and returns it with its start-up text.
 * `embedded`: the sandbox the backend runs as its gateway: the origins whose pages may frame its
 * ACS pages and forms, and the database it shares with the backend (its dev key stays in
 * DATA_DIR/sandbox).
 */
async function startSandbox(
  env: Env,
  config: ServerConfig,
  stopping: Stopping,
  embedded?: { framedBy: string[]; database: Database | undefined },
): Promise<{ sandbox: SandboxApp; origin: string; description: string }> {
  const dataDir = await dataFolder(config, 'sandbox');
  // Listen first: with SANDBOX_PORT=0 the origin (in every URL the sandbox hands out) is known
  // only then. Until the sandbox is ready it answers 503.
  const starting: RequestListener = (_req, res) => {
    res.writeHead(503, { 'retry-after': '1' }).end();
  };
  const server = await listen(starting, config.sandboxPort, 'SANDBOX_PORT', SANDBOX_HOST);
  const origin = localUrl(server, SANDBOX_HOST);
  let sandbox: SandboxApp;
  try {
    sandbox = await createSandboxApp({
      ...sandboxOptionsFromEnv(env),
      dataDir,
      publicOrigin: origin,
      ...(embedded ? { frameAncestors: embedded.framedBy } : {}),
      ...(embedded?.database ? { database: embedded.database } : {}),
    });
  } catch (error) {
    await closeGracefully(server);
    throw error;
  }
  stopping.push(async () => {
    await closeGracefully(server);
    await sandbox.close();
  });
  server.off('request', starting);
  server.on('request', sandbox.app);
  const description = describeSandbox({
    origin,
    basePath: sandbox.basePath,
    merchants: sandbox.merchants,
    devCredentials: sandbox.devCredentials,
    devMode: sandbox.sandbox.devMode,
  });
  return { sandbox, origin, description };
}

interface SharedDatabase {
  dataDir: string;
  /** The backend's store, migrated, in schema `checkout`. */
  checkout: CheckoutStore;
  /** The sandbox's handle, in schema `sandbox` (the sandbox migrates it). */
  sandbox: Database;
}

/**
 * The backend and its embedded sandbox on one PGlite, each in its own schema: one WASM Postgres in
 * the process instead of two, to save start-up time and memory (docs/pglite-options.md). Closed
 * after both have stopped.
 */
async function openSharedDatabase(
  dataDir: string,
  stopping: Stopping,
  opening: Promise<SharedPGlite> | undefined,
): Promise<SharedDatabase> {
  const pglite = await (opening ?? openSharedPGlite(dataDir));
  stopping.push(() => pglite.close());
  const checkout = await pglite.database('checkout');
  await migrateCheckoutStore(checkout);
  return {
    dataDir,
    checkout: createCheckoutStore(checkout),
    sandbox: await pglite.database('sandbox'),
  };
}

function storeLine(config: ServerConfig, shared: SharedDatabase | undefined): string {
  if (config.databaseUrl) return 'PostgreSQL (DATABASE_URL)';
  if (shared) return `PGlite in ${shared.dataDir} (schema checkout; the sandbox's: sandbox)`;
  return `PGlite in ${backendPgliteFolder(config)}`;
}

export async function runSandbox(
  env: Env,
  config: ServerConfig,
  stopping: Stopping,
): Promise<Started> {
  const { sandbox, origin, description } = await startSandbox(env, config, stopping);
  return { text: description, sandboxUrl: origin, sandbox };
}

export async function runServer(
  config: ServerConfig,
  command: Command,
  withDemo: boolean,
  stopping: Stopping,
  /** The shared database of backendPgliteFolder, when main.ts began to open it (main.ts). */
  opening?: Promise<SharedPGlite>,
): Promise<Started> {
  const host = listenHost(config, command);
  let gateway = config.gateway;
  let merchantApiKey = config.merchantApiKey;
  let jwtSecret = config.jwtSecret;
  let sandboxText: string | undefined;
  let embedded: { sandbox: SandboxApp; origin: string } | undefined;
  let shared: SharedDatabase | undefined;
  // Started now, awaited after the stores: the demo's code loads beside the database's start
  // rather than after it. Marked handled so that a failure while the stores start is not an
  // unhandled rejection; it is thrown where it is awaited.
  const demoPreparing = withDemo ? prepareDemo() : undefined;
  demoPreparing?.catch(() => {});

  if (!gateway) {
    // No gateway configured: the embedded sandbox with its dev merchant is the gateway. Its
    // pages may be framed by the backend's pages and the merchant pages, nothing else.
    const framedBy = [...new Set([new URL(config.publicUrl).origin, ...config.allowedOrigins])];
    shared = config.databaseUrl
      ? undefined
      : await openSharedDatabase(backendPgliteFolder(config), stopping, opening);
    const started = await startSandbox({}, config, stopping, {
      framedBy,
      database: shared?.sandbox,
    });
    const dev = started.sandbox.devCredentials;
    if (!dev)
      throw new ConfigError('GATEWAY_URL', 'the embedded sandbox did not create its dev merchant');
    gateway = {
      url: `${started.origin}${started.sandbox.basePath}`,
      endpointId: dev.endpointId,
      login: dev.login,
      controlKey: dev.controlKey,
      privateKeyFile: dev.privateKeyFile,
    };
    const secrets = await devSecrets(config.dataDir);
    merchantApiKey ??= secrets.merchantApiKey;
    jwtSecret ??= secrets.jwtSecret;
    embedded = started;
    sandboxText = started.description;
  }
  if (!merchantApiKey) throw new ConfigError('MERCHANT_API_KEY', 'is required');
  if (!jwtSecret) throw new ConfigError('JWT_SECRET', 'is required');

  // The same factory a merchant's app uses, mounted at the root of our own listener.
  const payCheckout = createPayCheckout(
    {
      gateway,
      merchantApiKey,
      jwtSecret,
      publicUrl: config.publicUrl,
      allowedOrigins: config.allowedOrigins,
      ...(config.webhook ? { webhook: config.webhook } : {}),
      eventRetentionDays: config.eventRetentionDays,
      database: config.databaseUrl
        ? { url: config.databaseUrl }
        : { dataDir: backendPgliteFolder(config) },
      logLevel: config.logLevel,
      trustProxy: config.trustProxy,
      ...(embedded ? { testMode: true } : {}),
      ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
      paymentLinkPage: config.paymentLinkPage,
    },
    shared ? { store: shared.checkout } : {},
  );
  await payCheckout.start();
  stopping.push(() => payCheckout.stop());
  const demo = await demoPreparing;

  const root = express();
  root.disable('x-powered-by');
  const server = await listen(root, config.port, 'PORT', host);
  // Slow or idle clients cannot hold the listener: a whole request within the timeout (headers
  // within it too), and a cap on open connections (new ones beyond it are dropped).
  server.requestTimeout = config.requestTimeoutMs;
  server.headersTimeout = config.requestTimeoutMs;
  server.maxConnections = config.maxConnections;
  stopping.push(() => closeGracefully(server));
  // Routes are added in the same turn as the listen callback: no request is served before them.
  const backendUrl = localUrl(server, host);
  const backendAddress = server.address() as AddressInfo;
  const port = backendAddress.port;
  let demoLine = '';
  if (demo) demoLine = demo(root, config, backendUrl, merchantApiKey, embedded?.origin);
  root.use(payCheckout.router);

  const lines = [
    `pay-checkout backend: ${config.publicUrl} (listening on ${host ?? 'every interface'}, port ${port})`,
    `  merchant API: ${config.publicUrl}/v1  (OpenAPI: ${config.publicUrl}/v1/openapi.json)`,
    `  widget API:   ${config.publicUrl}/widget  (allowed origins: ${config.allowedOrigins.join(', ')})`,
    `  health:       ${config.publicUrl}/healthz, ${config.publicUrl}/readyz`,
    `  store:        ${storeLine(config, shared)}`,
    `  gateway:      ${gateway.url}${embedded ? '  (SANDBOX: test mode, no real payment is made)' : ''}`,
  ];
  if (sandboxText) {
    lines.push('', 'Dev credentials (generated, kept in DATA_DIR/dev-secrets.json):');
    if (!config.merchantApiKey) lines.push(`  MERCHANT_API_KEY=${merchantApiKey}`);
    if (!config.jwtSecret) lines.push('  JWT_SECRET=(generated; in dev-secrets.json)');
    lines.push('', sandboxText);
  }
  if (demoLine) lines.push('', demoLine);
  return {
    text: lines.join('\n'),
    backendUrl,
    backendAddress,
    ...(embedded ? { sandboxUrl: embedded.origin, sandbox: embedded.sandbox } : {}),
  };
}

type MountDemo = (
  root: Express,
  config: ServerConfig,
  backendUrl: string,
  apiKey: string,
  sandboxOrigin: string | undefined,
) => string;

/** Loads the demo; returns its (synchronous) mount, which begins building a stale widget. */
async function prepareDemo(): Promise<MountDemo> {
  const { createDemoRouter } = (await import(
    '../../demo/server.js'
  )) as typeof import('../../demo/server.js');
  const widgetFile = widgetBundlePath(PROJECT_ROOT);
  return (root, config, backendUrl, apiKey, sandboxOrigin) => {
    // The demo serves the widget's CDN file, built when missing or older than a widget source:
    // seconds of CPU (a fresh clone's first start), so begun once the stack is up rather than
    // before or beside its start, which it would slow on two cores. The demo serves the file
    // once the build is done; a failed build is reported and the stack runs on.
    const widgetBuilt = ensureWidgetBuilt(PROJECT_ROOT).then(
      (result) => {
        if (result === 'built') console.log('Built the widget.');
      },
      (error: unknown) => {
        console.error(`The demo has no widget: ${error instanceof Error ? error.message : error}`);
      },
    );
    const frames = ["'self'", ...(sandboxOrigin ? [sandboxOrigin] : [])];
    const demoHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          // The widget frames the ACS pages and posts forms to them.
          frameSrc: frames,
          formAction: frames,
          frameAncestors: ["'none'"],
          baseUri: ["'none'"],
          objectSrc: ["'none'"],
        },
      },
    });
    const demoPaths = [
      '/demo',
      '/index.html',
      '/tools.html',
      '/app.js',
      '/tools.js',
      '/shop-api.js',
      '/styles.css',
      '/pay-checkout.js',
      '/locales',
    ];
    root.use(demoPaths, demoHeaders);
    root.get('/', demoHeaders);
    root.use(
      createDemoRouter({
        merchantApiUrl: backendUrl,
        merchantApiKey: apiKey,
        shopUrl: config.publicUrl,
        sandboxUrl: sandboxOrigin,
        widgetFile,
        widgetBuilt,
      }),
    );
    return `Demo shop: ${config.publicUrl}/  (tools: ${config.publicUrl}/tools.html)`;
  };
}
