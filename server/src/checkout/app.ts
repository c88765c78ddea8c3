/**
 * createCheckoutApp(config, deps): the companion backend as an Express app, plus `close()`.
 * It never listens (main.ts does) and never opens the store (the caller owns it), so tests and
 * several in-process instances can share one database.
 *
 *   /healthz /readyz          health
 *   /v1/csp-reports           payment pages' CSP violation reports (no key; csp-reports.ts)
 *   /v1/...                   merchant API (Bearer MERCHANT_API_KEY)
 *   /widget/...               widget API (session JWT, CORS from ALLOWED_ORIGINS)
 *   /return/{ref}             3DS return / notification page of one order
 *   /gateway-page/{ref}       the gateway's 3DS `html` of one order, under a strict CSP
 *   /launch/{ref}/{key}       the page that posts the order's 3DS forms (and frames its gateway page)
 *   /callbacks/gateway        the gateway's server callbacks
 *   /pay/{linkId}             a payment link's page (payment-link-page/), its visits' sessions
 *   /v<version>/pay-checkout.js, /pay-checkout.js, …  the element's CDN files (widget-files.ts)
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import express, { type Express } from 'express';
import helmet from 'helmet';
import type { CheckoutConfig } from '../config.js';
import { createGatewayClient, type FetchLike, type GatewayExchange } from '../gateway/index.js';
import { widgetFolder } from '../package-root.js';
import type { CheckoutStore } from '../store/index.js';
import {
  type CallScope,
  type Context,
  DEFAULT_TIMING,
  type Gateway,
  type Timing,
} from './context.js';
import { errorMiddleware, HttpError } from './errors.js';
import { reconcileOnce } from './following/reconciler.js';
import { callbackRouter } from './http/callbacks.js';
import {
  CSP_REPORTS_PATH,
  type CspReportOptions,
  cspReportsRouter,
  DEFAULT_CSP_REPORT_OPTIONS,
} from './http/csp-reports.js';
import { gatewayPageRouter } from './http/gateway-page/route.js';
import { healthRouter } from './http/health.js';
import { launcherRouter } from './http/launcher/route.js';
import {
  IDEMPOTENCY_PURGE_EVERY_MS,
  purgeIdempotencyKeys,
} from './http/merchant-api/idempotency.js';
import { merchantRouter } from './http/merchant-api/router.js';
import { metricsRouter } from './http/metrics.js';
import { elementScriptOf } from './http/payment-link-page/element-script.js';
import { paymentLinkPageRouter } from './http/payment-link-page/route.js';
import { returnRouter } from './http/return-page/route.js';
import { DEFAULT_PUBLIC_LIMITS, type PublicLimits, perIpLimit } from './http/throttle.js';
import {
  DEFAULT_WIDGET_LIMITS,
  type WidgetLimits,
  widgetRouter,
} from './http/widget-api/router.js';
import { widgetFilesRouter } from './http/widget-files.js';
import { createLogger, type Logger } from './logger.js';
import { createMetrics } from './metrics.js';
import { sweepPaymentLinks } from './payment-links/links.js';
import { PAYMENT_LINK_PAGE_PATH } from './payment-links/url.js';
import { expireDueSessions } from './payments/session-life.js';
import { GATEWAY_PAGE_PATH, LAUNCH_PATH } from './payments/urls.js';
import { deliverDueWebhooks, EVENT_PURGE_EVERY_MS, purgeOldEvents } from './webhooks/webhooks.js';

export interface CheckoutDeps {
  store: CheckoutStore;
  logger?: Logger;
  /** Replaces the gateway client entirely (tests of odd gateway answers). */
  gateway?: Gateway;
  /** The gateway client's HTTP function (fault injection); global fetch by default. */
  gatewayFetch?: FetchLike;
  gatewayTimeoutMs?: number;
  /** PEM of the RSA key for v4 operations; read from config.gateway.privateKeyFile otherwise. */
  privateKeyPem?: string;
  webhookFetch?: typeof fetch;
  timing?: Partial<Timing>;
  widgetLimits?: Partial<WidgetLimits>;
  /** Per-IP limits of /return, /callbacks and merchant API requests without a valid key. */
  publicLimits?: Partial<PublicLimits>;
  /** Rate and alert limits of `POST /v1/csp-reports`. */
  cspReports?: Partial<CspReportOptions>;
  /**
   * The element's CDN folder to serve (default: dist/cdn of this package); the payment link page
   * pins its file by the integrity.json there.
   */
  widgetDir?: string;
  /** Run the reconciler, session expiry and webhook sender on timers (default true; tests call them directly). */
  background?: boolean;
}

export interface CheckoutApp {
  app: Express;
  context: Context;
  /** One reconciliation pass (also run on a timer). */
  reconcile(olderThanSeconds?: number): Promise<number>;
  /** One sweep expiring open sessions past their expiry (also run on a timer). */
  expireSessions(): Promise<number>;
  /** One sweep of payment links: expiry, and the open visits of ended links (also on a timer). */
  sweepPaymentLinks(): Promise<number>;
  /** One webhook delivery pass (also run on a timer). */
  deliverWebhooks(): Promise<number>;
  /** One purge of events past their retention (also run on a timer); answers how many went. */
  purgeEvents(): Promise<number>;
  /** Stops timers and waits for background work; requests in flight are main.ts's to drain. */
  close(): Promise<void>;
}

function historyWriter(store: CheckoutStore, scope: AsyncLocalStorage<CallScope>, logger: Logger) {
  return async (exchange: GatewayExchange) => {
    const where = scope.getStore();
    try {
      await store.history.record({
        orderId: where?.orderId ?? null,
        operationId: where?.operationId ?? null,
        operation: exchange.operation,
        request: exchange.requestFields,
        response: exchange.response ? { ...exchange.response.raw } : null,
        httpStatus: exchange.httpStatus ?? null,
        durationMs: exchange.durationMs,
        requestId: exchange.requestId,
        error: exchange.error ? `${exchange.error.code}: ${exchange.error.message}` : null,
      });
    } catch (error) {
      logger.warn({ err: error, operation: exchange.operation }, 'gateway history append failed');
    }
  };
}

export function createCheckoutApp(config: CheckoutConfig, deps: CheckoutDeps): CheckoutApp {
  const logger = deps.logger ?? createLogger({ level: config.logLevel });
  const scope = new AsyncLocalStorage<CallScope>();
  const metrics = createMetrics(() => deps.store, config.metricsToken !== undefined);
  const recordHistory = historyWriter(deps.store, scope, logger);
  const gateway =
    deps.gateway ??
    createGatewayClient({
      gatewayUrl: config.gateway.url,
      endpointId: config.gateway.endpointId,
      login: config.gateway.login,
      controlKey: config.gateway.controlKey,
      privateKeyPem:
        deps.privateKeyPem ??
        (config.gateway.privateKeyFile
          ? readFileSync(config.gateway.privateKeyFile, 'utf8')
          : undefined),
      timeoutMs: deps.gatewayTimeoutMs,
      fetch: deps.gatewayFetch,
      onExchange: (exchange) => {
        metrics.gateway(exchange);
        return recordHistory(exchange);
      },
    });

  const inFlight = new Set<Promise<unknown>>();
  let closing = false;
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const ctx: Context = {
    config,
    store: deps.store,
    gateway,
    logger,
    timing: { ...DEFAULT_TIMING, ...deps.timing },
    events,
    scope,
    metrics,
    track(promise) {
      inFlight.add(promise);
      promise.then(
        () => inFlight.delete(promise),
        () => inFlight.delete(promise),
      );
      return promise;
    },
    closing: () => closing,
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy ?? false);
  app.set('etag', false);
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'none'"],
          baseUri: ["'none'"],
          formAction: ["'none'"],
          frameAncestors: ["'none'"],
        },
      },
      // The widget API is read cross-origin (CORS decides who may).
      crossOriginResourcePolicy: { policy: 'cross-origin' },
    }),
  );
  app.use((req, res, next) => {
    const given = req.get('x-request-id');
    const requestId = given && /^[A-Za-z0-9._-]{8,64}$/.test(given) ? given : randomUUID();
    res.locals.requestId = requestId;
    res.set('X-Request-Id', requestId);
    const started = performance.now();
    res.on('finish', () => {
      // The path only: query strings may carry callback fields, and bodies are never logged.
      logger.info(
        {
          requestId,
          method: req.method,
          path: req.baseUrl + req.path,
          status: res.statusCode,
          durationMs: Math.round(performance.now() - started),
        },
        'request',
      );
    });
    next();
  });

  const limits = { ...DEFAULT_PUBLIC_LIMITS, ...deps.publicLimits };
  // The widget API first: it takes most requests (each widget polls), and every route before it
  // is a layer its requests pass through. The paths do not overlap, so the order decides nothing
  // else; health goes last (a probe every few seconds).
  app.use('/widget', widgetRouter(ctx, { ...DEFAULT_WIDGET_LIMITS, ...deps.widgetLimits }));
  // Before the merchant API: browsers send these with no key.
  app.use(
    CSP_REPORTS_PATH,
    cspReportsRouter(ctx, { ...DEFAULT_CSP_REPORT_OPTIONS, ...deps.cspReports }),
  );
  app.use('/v1', merchantRouter(ctx, limits.failedAuthPerIp));
  app.use(
    '/return',
    perIpLimit({ limit: limits.returnPerIp, windowMs: 60_000 }),
    returnRouter(ctx),
  );
  app.use(
    PAYMENT_LINK_PAGE_PATH,
    perIpLimit({ limit: limits.payPagePerIp, windowMs: 60_000 }),
    paymentLinkPageRouter(ctx, elementScriptOf(deps.widgetDir ?? widgetFolder(), config.publicUrl)),
  );
  app.use(GATEWAY_PAGE_PATH, gatewayPageRouter(ctx));
  app.use(LAUNCH_PATH, launcherRouter(ctx));
  app.use(
    '/callbacks',
    perIpLimit({ limit: limits.callbacksPerIp, windowMs: 60_000 }),
    callbackRouter(ctx),
  );
  app.use(healthRouter(ctx));
  app.use(widgetFilesRouter(deps.widgetDir ?? widgetFolder()));
  if (config.metricsToken) app.use(metricsRouter(metrics, config.metricsToken));
  app.use((_req, _res, next) => next(new HttpError(404, 'not-found', 'No such route')));
  app.use(errorMiddleware(logger));

  // Background work: one pass at a time each, never overlapping itself.
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, name: string, pass: () => Promise<unknown>) => {
    let running = false;
    const timer = setInterval(() => {
      if (running || closing) return;
      running = true;
      ctx
        .track(pass())
        .catch((error: unknown) => logger.error({ err: error }, `${name} pass failed`))
        .finally(() => {
          running = false;
        });
    }, ms);
    timer.unref();
    timers.push(timer);
  };
  const deliverWebhooks = () => deliverDueWebhooks(ctx, deps.webhookFetch ?? fetch);
  const purgeEvents = () => purgeOldEvents(ctx);
  if (deps.background !== false) {
    every(ctx.timing.reconcileEveryMs, 'reconciler', () => reconcileOnce(ctx));
    every(ctx.timing.reconcileEveryMs, 'session expiry', () => expireDueSessions(ctx));
    every(ctx.timing.reconcileEveryMs, 'payment link sweep', () => sweepPaymentLinks(ctx));
    every(IDEMPOTENCY_PURGE_EVERY_MS, 'idempotency purge', () => purgeIdempotencyKeys(ctx));
    every(EVENT_PURGE_EVERY_MS, 'event purge', purgeEvents);
    if (config.webhook) every(ctx.timing.webhookEveryMs, 'webhook sender', deliverWebhooks);
  }

  return {
    app,
    context: ctx,
    reconcile: (olderThanSeconds) => reconcileOnce(ctx, olderThanSeconds),
    expireSessions: () => expireDueSessions(ctx),
    sweepPaymentLinks: () => sweepPaymentLinks(ctx),
    deliverWebhooks,
    purgeEvents,
    async close() {
      closing = true;
      for (const timer of timers) clearInterval(timer);
      // Wake long polls so they answer now instead of holding the shutdown.
      events.emit('closing');
      await Promise.allSettled([...inFlight]);
    },
  };
}
