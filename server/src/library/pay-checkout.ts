/**
 * createPayCheckout(options): the companion backend as a library. The merchant mounts `router` at
 * a path of their own Express app (`app.use('/pay', payCheckout.router)`), then `start()` opens the
 * store and runs the background work (reconciler, webhook sender); `stop()` ends it. `npm run
 * server` (main.ts) is the same thing behind its own listener.
 *
 * The options are validated when the factory is called (secrets included), so a mistake stops the
 * merchant's start-up with a ConfigError naming the field, before anything is opened.
 */
import { mkdir } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { type CheckoutApp, type CheckoutDeps, createCheckoutApp } from '../checkout/app.js';
import { type CheckoutStore, openCheckoutStore } from '../store/index.js';
import { type PayCheckoutOptions, resolveOptions } from './options.js';

/** A Connect/Express middleware: what `app.use(path, ...)` takes. */
export type PayCheckoutRouter = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

export interface PayCheckout {
  /** Mount it: `app.use('/pay', payCheckout.router)`. Answers 503 before `start()` and after `stop()`. */
  readonly router: PayCheckoutRouter;
  /** Opens the store and starts the background work; the router serves from then on. */
  start(): Promise<void>;
  /**
   * Stops the background work, waits for it, and closes the store. Close your HTTP server first
   * (so requests in flight finish), then call this.
   */
  stop(): Promise<void>;
  /** Where shoppers and the gateway reach the backend (`publicUrl`, mount path included). */
  readonly publicUrl: string;
}

/** What main.ts and tests may add: a shared store, a logger, fast timings. Not public API. */
export type PayCheckoutInternals = Partial<CheckoutDeps>;

function notRunning(res: ServerResponse): void {
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' }).end(
    JSON.stringify({
      error: { code: 'unavailable', message: 'pay-checkout is not started (call start())' },
    }),
  );
}

export function createPayCheckout(
  options: PayCheckoutOptions,
  internals: PayCheckoutInternals = {},
): PayCheckout {
  const { config, database, privateKeyPem } = resolveOptions(options);
  let running: { checkout: CheckoutApp; store: CheckoutStore; ownsStore: boolean } | undefined;
  let starting: Promise<void> | undefined;

  return {
    publicUrl: config.publicUrl,
    router(req, res, next) {
      if (!running) return notRunning(res);
      // Express upgrades the plain request and response as it routes them.
      running.checkout.app(req as Request, res as Response, next);
    },
    start() {
      starting ??= (async () => {
        // PGlite creates only the last folder of its path.
        if (database.dataDir) await mkdir(database.dataDir, { recursive: true });
        const store = internals.store ?? (await openCheckoutStore(database));
        try {
          const checkout = createCheckoutApp(config, {
            ...(privateKeyPem ? { privateKeyPem } : {}),
            ...internals,
            store,
          });
          running = { checkout, store, ownsStore: !internals.store };
        } catch (error) {
          if (!internals.store) await store.close();
          starting = undefined;
          throw error;
        }
      })();
      return starting;
    },
    async stop() {
      await starting?.catch(() => {});
      const stopping = running;
      running = undefined;
      starting = undefined;
      if (!stopping) return;
      await stopping.checkout.close();
      if (stopping.ownsStore) await stopping.store.close();
    },
  };
}
