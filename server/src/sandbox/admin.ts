/**
 * The sandbox's own routes (not part of the gateway): the test-card table, and in dev mode a
 * reset, fault switches and the callback log of an order. The routes that change state take JSON
 * only: a page on another site can send a form or a `text/plain` POST without asking, but a JSON
 * POST needs a CORS preflight, which the sandbox never grants.
 */
import express, { type Request, type Response, Router } from 'express';
import { hostGuard } from '../host-guard.js';
import type { Sandbox } from './context.js';
import { FaultSettingsError, validateFaults } from './faults.js';
import { TEST_CARDS } from './test-cards.js';

export function adminRouter(sandbox: Sandbox, publicOrigin?: string): Router {
  const router = Router();
  router.use(express.json({ limit: '16kb' }));

  router.get('/sandbox/test-cards', (_req, res) => {
    res.json(TEST_CARDS);
  });

  // The reset, fault switches and callback log are for pages of this machine (or its public
  // name) only: never a page on another site reaching them through DNS rebinding.
  const ownHost = hostGuard([publicOrigin]);
  const devOnly = (req: Request, res: Response, next: () => void) => {
    if (!sandbox.devMode) {
      res.status(404).json({ error: `${req.path} is available only in dev mode` });
      return;
    }
    ownHost(req, res, next);
  };

  const jsonOnly = (req: Request, res: Response, next: () => void) => {
    // The header itself, not req.is(): a reset has no body, and req.is() needs one.
    const type = req.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (type === 'application/json') return next();
    res.status(415).json({
      error: `${req.path} takes Content-Type: application/json (got ${req.get('content-type') ?? 'none'})`,
    });
  };

  router.post('/sandbox/reset', devOnly, jsonOnly, async (_req, res) => {
    await sandbox.jobs.idle();
    await sandbox.store.reset();
    sandbox.faults.clear();
    res.json({ reset: true });
  });

  router.get('/sandbox/faults', devOnly, (_req, res) => {
    res.json(sandbox.faults.snapshot());
  });

  /** Body: `{ "endpointId": "1111" | "*", "latencyMs"?, "errorRate"?, "dropRate"?, ... }`. */
  router.post('/sandbox/faults', devOnly, jsonOnly, (req, res) => {
    const { endpointId, ...settings } = (req.body ?? {}) as Record<string, unknown>;
    const endpoint = typeof endpointId === 'string' ? endpointId : '*';
    try {
      sandbox.faults.set(endpoint, validateFaults(settings));
    } catch (error) {
      if (error instanceof FaultSettingsError) {
        res.status(400).json({ error: error.message });
        return;
      }
      throw error;
    }
    res.json(sandbox.faults.snapshot());
  });

  router.get('/sandbox/callbacks/:orderid', devOnly, async (req, res) => {
    res.json(await sandbox.callbacks.list(String(req.params.orderid)));
  });

  // What a payment request carried of its payer (e-mail, phone, address; never the card): tests
  // check that the gateway got exactly what the shopper typed.
  router.get('/sandbox/payer/:orderid', devOnly, async (req, res) => {
    const tx = await sandbox.store.getTx(sandbox.store.db, String(req.params.orderid));
    if (!tx) return void res.status(404).json({ error: 'no such order' });
    res.json({ ...(tx.email ? { email: tx.email } : {}), ...tx.payer });
  });

  return router;
}
