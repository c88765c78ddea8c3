/**
 * The merchant API under /v1: JSON bodies (small), the API key, Idempotency-Key on POSTs, one
 * router file per resource, and the OpenAPI document generated from the same route table.
 */
import express, { Router } from 'express';
import type { Context } from '../../context.js';
import { FAILED_AUTH_WINDOW_MS, perIpLimit } from '../throttle.js';
import { methodCheck } from './allowed-methods.js';
import { hasMerchantKey, merchantAuth } from './auth.js';
import { extraRoutes } from './extra-routes.js';
import { idempotency } from './idempotency.js';
import { buildOpenApi } from './openapi.js';
import { orderRoutes } from './orders.js';
import { createRouteTable } from './route-spec.js';
import { sessionRoutes } from './sessions.js';

/** `failedAuthPerIp`: requests without a valid key per IP in FAILED_AUTH_WINDOW_MS. */
export function merchantRouter(ctx: Context, failedAuthPerIp: number): Router {
  const router = Router();
  // Strict and case-sensitive: `/orders/x/return/` and `/ORDERS/x/RETURN` are 404s, not other
  // spellings of one route (each spelling once counted as a fresh Idempotency-Key scope).
  const api = Router({ strict: true, caseSensitive: true });
  const routes = createRouteTable(api, { post: idempotency(ctx) });
  sessionRoutes(ctx, routes);
  orderRoutes(ctx, routes);
  extraRoutes(ctx, routes);
  const document = buildOpenApi(routes.specs, ctx.config.publicUrl);

  // The document holds no secret; integrators and tools read it without a key.
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  // The key before anything else: a stranger's request costs one comparison, never a JSON parse,
  // and counts against the stranger's IP (a valid key is never throttled).
  router.use(
    perIpLimit({
      limit: failedAuthPerIp,
      windowMs: FAILED_AUTH_WINDOW_MS,
      skip: (req) => hasMerchantKey(req, ctx.config.merchantApiKey),
    }),
  );
  router.use(merchantAuth(ctx.config.merchantApiKey));
  router.use(methodCheck(routes.specs));
  router.use(express.json({ limit: '32kb', strict: true }));
  router.use(api);
  return router;
}
