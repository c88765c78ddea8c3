/** The metrics route: the registry of metrics.ts, in the Prometheus text format, to its token only. */
import { Router } from 'express';
import type { Metrics } from '../metrics.js';
import { merchantAuth } from './merchant-api/auth.js';

/** `GET /metrics` with `Authorization: Bearer <token>`; a 401 otherwise. */
export function metricsRouter(metrics: Metrics, token: string): Router {
  const router = Router();
  router.get('/metrics', merchantAuth(token, 'metrics token'), async (_req, res) => {
    res.set('Content-Type', metrics.register.contentType).send(await metrics.register.metrics());
  });
  return router;
}
