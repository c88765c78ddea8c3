/**
 * One backend instance as a process of its own, for the crash proof (crash-many-instances.test.ts),
 * which SIGKILLs and restarts it: the checkout app of `main.ts server` (createCheckoutApp on an
 * opened store) with its background work on, and its intervals shortened so that a run is seconds
 * long (reconciler, webhook sender, leases), which `main.ts` offers no setting for. Everything
 * else comes from the environment:
 *   CRASH_INSTANCE  JSON { port, publicUrl, gateway, webhook?, databaseUrl?, schema?, dataDir? }
 * Prints `ready <port>` once it listens.
 */
import { createServer } from 'node:http';
import { createCheckoutApp } from '../../../server/src/checkout/app.js';
import { createLogger } from '../../../server/src/checkout/logger.js';
import type { CheckoutConfig } from '../../../server/src/config.js';
import { openCheckoutStore } from '../../../server/src/store/index.js';
import {
  FAST_TIMING,
  JWT_SECRET,
  MERCHANT_API_KEY,
  MERCHANT_ORIGIN,
} from '../../support/loopback-stack.js';

interface InstanceSettings {
  port: number;
  publicUrl: string;
  gateway: CheckoutConfig['gateway'];
  webhook?: { url: string; secret: string };
  databaseUrl?: string;
  schema?: string;
  dataDir?: string;
}

const settings = JSON.parse(process.env.CRASH_INSTANCE ?? '{}') as InstanceSettings;
const store = await openCheckoutStore(
  settings.databaseUrl
    ? { url: settings.databaseUrl, schema: settings.schema }
    : { dataDir: settings.dataDir },
);
const checkout = createCheckoutApp(
  {
    gateway: settings.gateway,
    merchantApiKey: MERCHANT_API_KEY,
    jwtSecret: JWT_SECRET,
    publicUrl: settings.publicUrl,
    allowedOrigins: [MERCHANT_ORIGIN],
    logLevel: 'warn',
    testMode: true,
    ...(settings.webhook ? { webhook: settings.webhook } : {}),
  },
  {
    store,
    logger: createLogger({ level: 'warn' }),
    gatewayTimeoutMs: 3_000,
    timing: {
      ...FAST_TIMING,
      reconcileEveryMs: 250,
      reconcileAfterSeconds: 1,
      sendLeaseMs: 4_000,
      webhookEveryMs: 100,
      webhookBackoffMs: 100,
      webhookBackoffCapMs: 1_000,
    },
    // One test client is every shopper: no per-IP limit may throttle the run.
    widgetLimits: { perIp: 1_000_000, perSession: 1_000_000 },
    publicLimits: { returnPerIp: 1_000_000, callbacksPerIp: 1_000_000 },
  },
);
const server = createServer(checkout.app);
server.listen(settings.port, '127.0.0.1', () => {
  console.log(`ready ${settings.port}`);
});
