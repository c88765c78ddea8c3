/**
 * The CLI entry, and the only place that listens:
 *   tsx server/src/main.ts sandbox   the sandbox gateway alone (SANDBOX_PORT)
 *   tsx server/src/main.ts server    the companion backend (PORT), plus the embedded sandbox
 *                                    when GATEWAY_URL is absent
 *   tsx server/src/main.ts start     as `server`, and the demo shop on the backend's origin
 * Add `--fresh` (`npm start -- --fresh`) to start without the orders kept in DATA_DIR.
 * Ctrl-C / SIGTERM stop everything gracefully: no new connections, requests in flight finish
 * (up to a deadline), background work settles, then the stores close.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { type CheckoutApp, createCheckoutApp } from './checkout/app.js';
import { createLogger } from './checkout/logger.js';
import {
  type CheckoutConfig,
  ConfigError,
  type Env,
  parseServerConfig,
  readEnvironment,
  type ServerConfig,
} from './config.js';
import {
  createSandboxApp,
  describeSandbox,
  type SandboxApp,
  sandboxOptionsFromEnv,
} from './sandbox/index.js';
import { type CheckoutStore, openCheckoutStore } from './store/index.js';
import { ensureWidgetBuilt, widgetBundlePath } from './widget-build.js';

type Command = 'start' | 'server' | 'sandbox';
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHUTDOWN_GRACE_MS = 10_000;

/** Listens, or fails with one line naming the variable that chose a port already in use. */
function listen(app: Express, port: number, variable: string, host?: string): Promise<Server> {
  const server = createServer(app);
  return new Promise((resolvePromise, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new ConfigError(
              variable,
              `port ${port} is already in use; stop the other process or choose another port`,
            )
          : error,
      ),
    );
    server.listen(port, host, () => resolvePromise(server));
  });
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
 */
async function startSandbox(
  env: Env,
  config: ServerConfig,
  stopping: Array<() => Promise<void>>,
): Promise<{ sandbox: SandboxApp; origin: string; description: string }> {
  const origin = `http://127.0.0.1:${config.sandboxPort}`;
  const sandbox = await createSandboxApp({
    ...sandboxOptionsFromEnv(env),
    dataDir: join(config.dataDir, 'sandbox'),
    publicOrigin: origin,
  });
  const server = await listen(sandbox.app, config.sandboxPort, 'SANDBOX_PORT', '127.0.0.1');
  stopping.push(async () => {
    await closeGracefully(server);
    await sandbox.close();
  });
  const description = describeSandbox({
    origin,
    basePath: sandbox.basePath,
    merchants: sandbox.merchants,
    devCredentials: sandbox.devCredentials,
    devMode: sandbox.sandbox.devMode,
  });
  return { sandbox, origin, description };
}

async function runSandbox(
  env: Env,
  config: ServerConfig,
  stopping: Array<() => Promise<void>>,
): Promise<void> {
  console.log((await startSandbox(env, config, stopping)).description);
}

async function runServer(
  config: ServerConfig,
  withDemo: boolean,
  stopping: Array<() => Promise<void>>,
): Promise<void> {
  const logger = createLogger({ level: config.logLevel });
  let gateway = config.gateway;
  let merchantApiKey = config.merchantApiKey;
  let jwtSecret = config.jwtSecret;
  let sandboxText: string | undefined;
  let sandboxOrigin: string | undefined;

  if (!gateway) {
    // No gateway configured: the embedded sandbox with its dev merchant is the gateway.
    const { sandbox, origin, description } = await startSandbox({}, config, stopping);
    const dev = sandbox.devCredentials;
    if (!dev)
      throw new ConfigError('GATEWAY_URL', 'the embedded sandbox did not create its dev merchant');
    gateway = {
      url: `${origin}${sandbox.basePath}`,
      endpointId: dev.endpointId,
      login: dev.login,
      controlKey: dev.controlKey,
      privateKeyFile: dev.privateKeyFile,
    };
    const secrets = await devSecrets(config.dataDir);
    merchantApiKey ??= secrets.merchantApiKey;
    jwtSecret ??= secrets.jwtSecret;
    sandboxOrigin = origin;
    sandboxText = description;
  }
  if (!merchantApiKey) throw new ConfigError('MERCHANT_API_KEY', 'is required');
  if (!jwtSecret) throw new ConfigError('JWT_SECRET', 'is required');

  const store: CheckoutStore = await openCheckoutStore(
    config.databaseUrl
      ? { url: config.databaseUrl }
      : { dataDir: join(config.dataDir, 'checkout') },
  );
  const checkoutConfig: CheckoutConfig = {
    gateway,
    merchantApiKey,
    jwtSecret,
    publicUrl: config.publicUrl,
    allowedOrigins: config.allowedOrigins,
    webhook: config.webhook,
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
  };
  const checkout: CheckoutApp = createCheckoutApp(checkoutConfig, { store, logger });

  const root = express();
  root.disable('x-powered-by');
  let demoLine = '';
  if (withDemo) demoLine = await mountDemo(root, config, merchantApiKey, sandboxOrigin);
  root.use(checkout.app);
  const server = await listen(root, config.port, 'PORT');
  stopping.push(async () => {
    await closeGracefully(server);
    await checkout.close();
    await store.close();
  });

  const lines = [
    `pay-checkout backend: ${config.publicUrl} (listening on port ${config.port})`,
    `  merchant API: ${config.publicUrl}/v1  (OpenAPI: ${config.publicUrl}/v1/openapi.json)`,
    `  widget API:   ${config.publicUrl}/widget  (allowed origins: ${config.allowedOrigins.join(', ')})`,
    `  health:       ${config.publicUrl}/healthz, ${config.publicUrl}/readyz`,
    `  store:        ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${join(config.dataDir, 'checkout')}`}`,
    `  gateway:      ${gateway.url}`,
  ];
  if (sandboxText) {
    lines.push('', 'Dev credentials (generated, kept in DATA_DIR/dev-secrets.json):');
    if (!config.merchantApiKey) lines.push(`  MERCHANT_API_KEY=${merchantApiKey}`);
    if (!config.jwtSecret) lines.push('  JWT_SECRET=(generated; in dev-secrets.json)');
    lines.push('', sandboxText);
  }
  if (demoLine) lines.push('', demoLine);
  console.log(lines.join('\n'));
}

async function mountDemo(
  root: Express,
  config: ServerConfig,
  apiKey: string,
  sandboxOrigin: string | undefined,
): Promise<string> {
  const { createDemoRouter } = (await import(
    '../../demo/server.js'
  )) as typeof import('../../demo/server.js');
  // The demo serves the widget's CDN file: build it first when a widget source is newer.
  if ((await ensureWidgetBuilt(PROJECT_ROOT)) === 'built') console.log('Built the widget.');
  const widgetFile = widgetBundlePath(PROJECT_ROOT);
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
  ];
  root.use(demoPaths, demoHeaders);
  root.get('/', demoHeaders);
  root.use(
    createDemoRouter({
      merchantApiUrl: `http://127.0.0.1:${config.port}`,
      merchantApiKey: apiKey,
      sandboxUrl: sandboxOrigin,
      widgetFile,
    }),
  );
  return `Demo shop: ${config.publicUrl}/  (tools: ${config.publicUrl}/tools.html)`;
}

/**
 * `--fresh`: forget every order, session and sandbox transaction kept in DATA_DIR (the dev
 * secrets stay, so a configured demo keeps working). A PostgreSQL database is never touched.
 */
async function startClean(config: ServerConfig): Promise<void> {
  for (const folder of ['checkout', 'sandbox']) {
    await rm(join(config.dataDir, folder), { recursive: true, force: true });
  }
  console.log(`Starting clean: removed the embedded data in ${config.dataDir}.`);
  if (config.databaseUrl) console.log('  (DATABASE_URL is set: that database is left as it is.)');
}

async function main(): Promise<void> {
  const command = (process.argv[2] ?? 'server') as Command;
  if (!['start', 'server', 'sandbox'].includes(command)) {
    console.error(`Unknown command "${command}": use start, server or sandbox.`);
    process.exit(2);
  }
  const env = readEnvironment();
  // The sandbox alone reads the merchant variables as its merchant, not as a gateway to call.
  const config = parseServerConfig(
    command === 'sandbox'
      ? {
          ...env,
          ENDPOINT_ID: undefined,
          MERCHANT_LOGIN: undefined,
          MERCHANT_CONTROL_KEY: undefined,
          MERCHANT_PRIVATE_KEY_FILE: undefined,
        }
      : env,
  );
  if (process.argv.includes('--fresh')) await startClean(config);
  const stopping: Array<() => Promise<void>> = [];
  let stopped = false;
  const stop = async (signal: string) => {
    if (stopped) return;
    stopped = true;
    console.log(`\n${signal}: shutting down (requests in flight may finish)...`);
    // Reverse order: the backend drains before the sandbox it talks to.
    for (const step of stopping.reverse())
      await step().catch((error: unknown) => console.error(error));
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  if (command === 'sandbox') await runSandbox(env, config, stopping);
  else await runServer(config, command === 'start', stopping);
}

main().catch((error: unknown) => {
  // One clear line for configuration mistakes; the stack only for the unexpected.
  if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
  else if (error instanceof Error && error.name === 'SandboxConfigError')
    console.error(`Configuration error: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
