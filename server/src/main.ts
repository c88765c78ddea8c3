/**
 * The CLI entry, and the only place that listens. In production it runs compiled (`npm run build`,
 * then `npm run server` or `npx pay-checkout server`: bin/pay-checkout.mjs); in development
 * `npm start` runs these sources through tsx.
 *   pay-checkout sandbox   the sandbox gateway alone (SANDBOX_PORT, on 127.0.0.1)
 *   pay-checkout server    the companion backend (PORT, every interface unless HOST); without
 *                          GATEWAY_URL only when SANDBOX=1 names the embedded sandbox
 *   pay-checkout start     as `server` on 127.0.0.1 unless HOST, with the embedded sandbox unless
 *                          GATEWAY_URL, and the demo shop on the backend's origin (refused with a
 *                          real gateway unless DEMO=1; from a clone of the repository only)
 *   pay-checkout integrity the <script> tag that pins the element (tools/integrity.ts)
 *   pay-checkout watch-page <url>  the payment page's scripts and headers against a baseline
 *                          (tools/watch-page.ts)
 * Add `--fresh` (`npm start -- --fresh`) to start without the orders kept in DATA_DIR.
 * Ctrl-C / SIGTERM stop everything gracefully: no new connections, requests in flight finish
 * (up to a deadline), background work settles, then the stores close.
 * `start()` is exported so tests run a command in-process (port 0 picks a free port). What each
 * command starts is in commands.ts, loaded by start() (see there).
 */
import { realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Started, Stopping } from './commands.js';
import {
  type Command,
  ConfigError,
  demoAllowed,
  type Env,
  parseServerConfig,
  pgliteFolder,
  readEnvironment,
  requireGatewayOrSandbox,
  type ServerConfig,
} from './config.js';
import { secureDataDir } from './data-dir.js';
import { SandboxConfigError } from './sandbox/options.js';
import { initialiseDataDir } from './store/engine/pglite-folder.js';
import { useDataFolderTemplates } from './store/engine/pglite-template.js';

export type { Started, Stopping };

/**
 * `--fresh`: forget every order, session and sandbox transaction kept in DATA_DIR (the dev
 * secrets stay, so a configured demo keeps working). A PostgreSQL database is never touched.
 */
async function startClean(config: ServerConfig): Promise<string> {
  for (const folder of ['checkout', 'sandbox', 'pglite']) {
    await rm(join(config.dataDir, folder), { recursive: true, force: true });
  }
  return [
    `Starting clean: removed the embedded data in ${config.dataDir}.`,
    ...(config.databaseUrl ? ['  (DATABASE_URL is set: that database is left as it is.)'] : []),
  ].join('\n');
}

/**
 * Runs `command` with `env` (the process environment for the CLI). Every started part registers
 * its shutdown in `stopping`, also when a later step fails: run them with `stopAll`.
 */
export async function start(
  command: Command,
  env: Env,
  stopping: Stopping,
  options: { fresh?: boolean } = {},
): Promise<Started> {
  // The sandbox alone reads the merchant variables as its merchant, not as a gateway to call,
  // and calls no gateway: one .env shared with the backend (GATEWAY_URL set) must start it too.
  const config = parseServerConfig(
    command === 'sandbox'
      ? {
          ...env,
          GATEWAY_URL: undefined,
          ENDPOINT_ID: undefined,
          MERCHANT_LOGIN: undefined,
          MERCHANT_CONTROL_KEY: undefined,
          MERCHANT_PRIVATE_KEY_FILE: undefined,
        }
      : env,
  );
  // Before anything is touched: a refused demo or a missing gateway stops start-up, not a
  // half-started stack.
  requireGatewayOrSandbox(config, command);
  const withDemo = demoAllowed(config, command);
  // What this process creates is its user's alone (umask), and
  // DATA_DIR is checked and tightened before anything in it is opened.
  process.umask(0o077);
  const folder = pgliteFolder(config, command);
  if (folder || !config.gateway || command === 'sandbox') await secureDataDir(config.dataDir);
  const clean = options.fresh ? await startClean(config) : '';
  // A new embedded database is a copy of one initialised before (pglite-template.ts; the first
  // one ever is initdb in a child process, seconds of one core). Begun before the app's code is
  // loaded, so that the two go on at once; opening the store joins it.
  useDataFolderTemplates();
  if (folder) initialiseDataDir(folder).catch(() => {});
  // `start` (and `server` with SANDBOX=1) on PGlite: one database for the backend and its sandbox,
  // opened now too, beside the loading of the app's code (PGlite reads its files and compiles its
  // WebAssembly off the main thread meanwhile). runServer takes it over (and its closing).
  const opening =
    folder && command !== 'sandbox' && !config.gateway && !config.databaseUrl
      ? import('./store/engine/database.js').then((store) => store.openSharedPGlite(folder))
      : undefined;
  opening?.catch(() => {});
  const { runSandbox, runServer } = await import('./commands.js').catch(async (error: unknown) => {
    await (await opening?.catch(() => undefined))?.close();
    throw error;
  });
  const started =
    command === 'sandbox'
      ? await runSandbox(env, config, stopping)
      : await runServer(config, command, withDemo, stopping, opening);
  return clean ? { ...started, text: `${clean}\n${started.text}` } : started;
}

/** Runs the registered shutdowns, the last started first (the backend drains before its sandbox). */
export async function stopAll(stopping: Stopping): Promise<void> {
  for (const step of stopping.splice(0).reverse())
    await step().catch((error: unknown) => console.error(error));
}

/** One line for any start-up failure: the variable for configuration mistakes, else the cause. */
export function startupFailureLine(error: unknown): string {
  if (error instanceof ConfigError || error instanceof SandboxConfigError)
    return `Configuration error: ${error.message}`;
  const text =
    error instanceof Error
      ? error.message || (error as NodeJS.ErrnoException).code || error.name
      : String(error);
  return `Start-up failed: ${text.split('\n')[0]}`;
}

/** Commands that start nothing: each prints what it found and exits with its code. */
const TOOLS: Record<
  string,
  () => Promise<{
    run(args: string[]): { code: number; out: string } | Promise<{ code: number; out: string }>;
  }>
> = {
  integrity: async () => ({ run: (await import('./tools/integrity.js')).integrityTag }),
  'watch-page': async () => ({
    run: (args) => import('./tools/watch-page/command.js').then((m) => m.watchPage(args)),
  }),
};

/** The CLI: `process.argv[2]` names the command (bin/pay-checkout.mjs and `node main.js` run it). */
export async function main(): Promise<void> {
  const command = (process.argv[2] ?? 'server') as Command;
  const tool = TOOLS[process.argv[2] ?? ''];
  if (tool) {
    const { code, out } = await (await tool()).run(process.argv.slice(3));
    (code === 0 ? console.log : console.error)(out);
    process.exit(code);
  }
  if (!['start', 'server', 'sandbox'].includes(command)) {
    console.error(
      `Unknown command "${command}": use start, server, sandbox, integrity or watch-page.`,
    );
    process.exit(2);
  }
  const stopping: Stopping = [];
  let stopped = false;
  const stop = async (signal: string) => {
    if (stopped) return;
    stopped = true;
    console.log(`\n${signal}: shutting down (requests in flight may finish)...`);
    await stopAll(stopping);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  try {
    const started = await start(command, readEnvironment(), stopping, {
      fresh: process.argv.includes('--fresh'),
    });
    console.log(started.text);
  } catch (error) {
    console.error(startupFailureLine(error));
    stopped = true;
    await stopAll(stopping);
    process.exit(1);
  }
}

// Run as the CLI only; tests import start() without starting anything.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href)
  void main();
