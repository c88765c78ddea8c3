/**
 * `/healthz`: the process is up (no dependencies, for liveness probes).
 * `/readyz`: the store answers a query and the gateway answers HTTP at all (any status: we only
 * ask whether it is reachable, not whether it likes an empty request). 503 otherwise, and while
 * shutting down so load balancers drain this instance first.
 * The checks are remembered for READY_CACHE_MS (concurrent calls share one run): a flood of
 * `/readyz` must not become a flood of requests to the gateway.
 */
import { Router } from 'express';
import type { Context } from '../context.js';

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

/** How long one run of the readiness checks answers for. */
export const READY_CACHE_MS = 5_000;

interface Checks {
  store: boolean;
  gateway: boolean;
}

export function healthRouter(ctx: Context): Router {
  const router = Router();
  let last: { at: number; checks: Promise<Checks> } | undefined;
  const checks = (): Promise<Checks> => {
    const now = performance.now();
    if (!last || now - last.at >= READY_CACHE_MS) {
      last = {
        at: now,
        checks: Promise.all([
          ctx.store.ping().then(
            () => true,
            () => false,
          ),
          gatewayReachable(ctx.config.gateway.url, 2_000),
        ]).then(([store, gateway]) => ({ store, gateway })),
      };
    }
    return last.checks;
  };
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const { store, gateway } = await checks();
    // Shutting down is read live: a draining instance leaves the pool at once.
    const ready = store && gateway && !ctx.closing();
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not-ready',
      // A sandbox approves whatever it is sent: an operator must see at once which one runs.
      gateway: ctx.config.testMode ? 'sandbox' : 'live',
      checks: {
        store: store ? 'ok' : 'failing',
        gateway: gateway ? 'ok' : 'unreachable',
        shuttingDown: ctx.closing(),
      },
    });
  });
  return router;
}
