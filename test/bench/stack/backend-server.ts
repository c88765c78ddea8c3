/**
 * The companion backend in its own process, composed as main.ts composes it (a root Express app,
 * then createCheckoutApp), plus two bench routes on the root app: `GET /bare` (the baseline: a
 * bare Express handler in the same process) and `GET /__bench/memory`.
 *
 * Deviations from production, all through public options: request logs go to /dev/null at
 * `info` (the logging work is kept, the terminal spam is not), and the widget rate limits are
 * raised, because one load generator on one IP is not a crowd of shoppers.
 */
import express from 'express';
import pino from 'pino';
import { createCheckoutApp } from '../../../server/src/checkout/app.js';
import { createLogger } from '../../../server/src/checkout/logger.js';
import { openCheckoutStore } from '../../../server/src/store/index.js';
import { closeServer, listenLoopback } from './listen.js';
import { mountMemoryRoute, onStop } from './memory-route.js';
import { mountProfileRoute } from './profile-route.js';
import { announce, type BackendInput, readInput } from './protocol.js';

const input = readInput<BackendInput>();
const store = await openCheckoutStore({
  url: input.db.url,
  schema: input.db.schema,
  dataDir: input.db.url ? undefined : `${input.db.dataDir}/checkout-db`,
});
const { server, url } = await listenLoopback();
const logger = createLogger({ level: 'info', destination: pino.destination('/dev/null') });
const checkout = createCheckoutApp(
  {
    gateway: {
      url: input.sandbox.gatewayUrl,
      endpointId: input.sandbox.endpointId,
      login: input.sandbox.login,
      controlKey: input.sandbox.controlKey,
      privateKeyFile: input.sandbox.privateKeyFile,
    },
    merchantApiKey: input.merchantApiKey,
    jwtSecret: input.jwtSecret,
    publicUrl: url,
    allowedOrigins: [input.allowedOrigin],
    logLevel: 'info',
  },
  {
    store,
    logger,
    widgetLimits: { perIp: 1_000_000_000, perSession: 1_000_000_000 },
    publicLimits: {
      returnPerIp: 1_000_000_000,
      callbacksPerIp: 1_000_000_000,
      failedAuthPerIp: 1_000_000_000,
    },
  },
);

const root = express();
root.disable('x-powered-by');
root.get('/bare', (_req, res) => {
  res.json({ ok: true });
});
mountMemoryRoute(root);
mountProfileRoute(root);
root.use(checkout.app);
server.on('request', root);

onStop(async () => {
  await closeServer(server);
  await checkout.close();
  await store.close();
});
announce({ ready: 'backend', url });
