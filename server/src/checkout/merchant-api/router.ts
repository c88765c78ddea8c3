/**
 * The merchant API under /v1: JSON bodies (small), the API key, Idempotency-Key on POSTs, one
 * router file per resource, and the OpenAPI document generated from the same route table.
 */
import express, { Router } from 'express';
import type { Context } from '../context.js';
import { merchantAuth } from './auth.js';
import { extraRoutes } from './extra-routes.js';
import { idempotency } from './idempotency.js';
import { buildOpenApi } from './openapi.js';
import { orderRoutes } from './orders.js';
import { createRouteTable } from './route-spec.js';
import { sessionRoutes } from './sessions.js';

export function merchantRouter(ctx: Context): Router {
  const router = Router();
  const api = Router();
  const routes = createRouteTable(api);
  sessionRoutes(ctx, routes);
  orderRoutes(ctx, routes);
  extraRoutes(ctx, routes);
  const document = buildOpenApi(routes.specs, ctx.config.publicUrl);

  // The document holds no secret; integrators and tools read it without a key.
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.use(express.json({ limit: '32kb', strict: true }));
  router.use(merchantAuth(ctx.config.merchantApiKey));
  router.use(idempotency(ctx));
  router.use(api);
  return router;
}
