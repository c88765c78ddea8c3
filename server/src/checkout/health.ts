/**
 * `/healthz`: the process is up (no dependencies, for liveness probes).
 * `/readyz`: the store answers a query and the gateway answers HTTP at all (any status: we only
 * ask whether it is reachable, not whether it likes an empty request). 503 otherwise, and while
 * shutting down so load balancers drain this instance first.
 */
import { Router } from 'express';
import type { Context } from './context.js';

async function gatewayReachable(url: string, timeoutMs: number): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'HEAD',
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    await res.body?.cancel().catch(() => {});
    return true;
  } catch {
    return false;
  }
}

export function healthRouter(ctx: Context): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const [store, gateway] = await Promise.all([
      ctx.store.db.query('select 1').then(
        () => true,
        () => false,
      ),
      gatewayReachable(ctx.config.gateway.url, 2_000),
    ]);
    const ready = store && gateway && !ctx.closing();
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not-ready',
      checks: {
        store: store ? 'ok' : 'failing',
        gateway: gateway ? 'ok' : 'unreachable',
        shuttingDown: ctx.closing(),
      },
    });
  });
  return router;
}
