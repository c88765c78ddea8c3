/**
 * createSandboxApp: the gateway emulator in-process. Opens (or takes) the database, applies the
 * `sandbox` migrations, loads the merchants (or makes the dev merchant), re-arms pending jobs,
 * and returns the Express app with the handles tests and main.ts need.
 */
import express, { type ErrorRequestHandler, type Express } from 'express';
import pino from 'pino';
import { migrate, openDatabase } from '../store/engine/database.js';
import type { Database } from '../store/engine/types.js';
import { formRouter } from './acs/form-pages.js';
import { acsRouter } from './acs/pages.js';
import { adminRouter } from './admin.js';
import { Callbacks } from './callbacks.js';
import type { Sandbox } from './context.js';
import { Faults } from './faults.js';
import { callbackGet } from './http/callback-get.js';
import { SandboxError } from './http/errors.js';
import { operationHandler } from './http/operation.js';
import { sendPay, sendServerError, serialNumber } from './http/respond.js';
import { JobRunner } from './jobs.js';
import {
  type DevCredentials,
  devMerchant,
  loadMerchants,
  type Merchant,
  MerchantRegistry,
} from './merchants.js';
import { OPERATIONS } from './operations/index.js';
import { registerRecurringJobs } from './operations/recurring.js';
import type { SandboxOptions } from './options.js';
import { Processor } from './processor.js';
import { type Clock, systemClock } from './scheduler.js';
import { SANDBOX_MIGRATION_SET, SANDBOX_MIGRATIONS } from './schema.js';
import { SandboxStore } from './store.js';

/** Who may frame the sandbox's pages by default: pages served from this machine only. */
const LOOPBACK_PAGES = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'];

export interface SandboxApp {
  app: Express;
  sandbox: Sandbox;
  store: SandboxStore;
  clock: Clock;
  faults: Faults;
  merchants: readonly Merchant[];
  /** The dev merchant's credentials, when it was made (print them; sign with them). */
  devCredentials: DevCredentials | undefined;
  /** `/paynet`: the gateway base URL is `{origin}{basePath}`. */
  basePath: string;
  /** Resolves when no delayed job (step, callback attempt) is running. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function createSandboxApp(options: SandboxOptions = {}): Promise<SandboxApp> {
  const log = options.logger ?? pino({ name: 'sandbox', level: 'warn' });
  const clock = options.clock ?? systemClock();
  const basePath = options.basePath ?? '/paynet';

  let merchants = await loadMerchants(options.merchants ?? []);
  let devCredentials: DevCredentials | undefined;
  if (merchants.length === 0) {
    const dev = await devMerchant(options.dataDir);
    merchants = [dev.merchant];
    devCredentials = dev.credentials;
  }
  const devMode = options.devMode ?? devCredentials !== undefined;

  const ownsDb = !options.database;
  const db: Database =
    options.database ??
    (await openDatabase({ url: options.databaseUrl, dataDir: options.dataDir }));
  await migrate(db, SANDBOX_MIGRATION_SET, SANDBOX_MIGRATIONS);

  const store = new SandboxStore(db);
  const jobs = new JobRunner(db, clock, log);
  const registry = new MerchantRegistry(merchants);
  const faults = new Faults(options.faults, options.random);
  const processingDelayMs = options.processingDelayMs ?? 100;
  const callbacks = new Callbacks(
    store,
    jobs,
    clock,
    registry,
    faults,
    {
      maxAttempts: options.callbacks?.maxAttempts ?? 6,
      baseDelayMs: options.callbacks?.baseDelayMs ?? 1000,
      timeoutMs: options.callbacks?.timeoutMs ?? 5000,
    },
    options.fetch ?? callbackGet,
    log,
  );
  const processor = new Processor(store, jobs, clock, callbacks, {
    processingDelayMs,
    unknownDurationMs: options.unknownDurationMs ?? processingDelayMs * 3,
    threeDsTimeoutMs: options.threeDsTimeoutMs ?? 600_000,
    lateApprovalMs: options.lateApprovalMs ?? 20_000,
  });
  const sandbox: Sandbox = {
    store,
    jobs,
    clock,
    merchants: registry,
    processor,
    callbacks,
    faults,
    log,
    basePath,
    devMode,
    publicOrigin: options.publicOrigin,
    frameAncestors: ["'self'", ...(options.frameAncestors ?? LOOPBACK_PAGES)],
  };
  registerRecurringJobs(sandbox);

  const app = express();
  app.disable('x-powered-by');
  app.use(adminRouter(sandbox, options.publicOrigin));

  const gateway = express.Router();
  // The raw form text: OAuth signs the exact pairs, so the body is parsed by the operation. Room
  // for an order_desc of 64k characters (percent-encoded, it may take three times that) and the
  // rest of a sale.
  gateway.use('/api', express.text({ type: () => true, limit: '256kb', defaultCharset: 'utf-8' }));
  for (const def of OPERATIONS) {
    const paths = [`/${def.path}/:endpointId`];
    if (def.group) paths.push(`/${def.path}/group/:groupId`);
    gateway.all(paths, operationHandler(sandbox, def));
  }
  gateway.use(acsRouter(sandbox));
  gateway.use(formRouter(sandbox));
  app.use(basePath, gateway);
  app.use(basePath, adminRouter(sandbox, options.publicOrigin));
  app.use(errorHandler(log));

  await jobs.recover();

  return {
    app,
    sandbox,
    store,
    clock,
    faults,
    merchants,
    devCredentials,
    basePath,
    idle: () => jobs.idle(),
    async close() {
      await jobs.close();
      if (ownsDb) await db.close();
    },
  };
}

function errorHandler(log: pino.Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (error instanceof SandboxError) {
      sendPay(res, error.httpStatus, {
        type: error.httpStatus === 403 ? 'error' : 'validation-error',
        'serial-number': serialNumber(),
        'error-code': error.code,
        'error-message': error.message,
      });
      return;
    }
    // Body parser refusals (too large, bad charset) are the client's fault.
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      sendPay(res, 400, {
        type: 'validation-error',
        'serial-number': serialNumber(),
        'error-code': 'invalid-body',
        'error-message': `body: ${(error as Error).message}`,
      });
      return;
    }
    log.error({ err: error, path: req.path }, 'sandbox request failed');
    sendServerError(res);
  };
}
