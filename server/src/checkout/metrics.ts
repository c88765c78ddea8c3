/**
 * What an operator watches, in the Prometheus text format (prom-client), at `GET /metrics` behind
 * a bearer token of its own (METRICS_TOKEN; the route does not exist without one). Counters and
 * histograms move where the thing happens; the gauges of what is stuck (operations `unknown`,
 * undelivered webhooks) are read from the store at each scrape, so every instance reports the
 * same shared truth. Each app has a registry of its own (several may live in one process).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { GatewayExchange } from '../gateway/index.js';
import type { Backlog, CheckoutStore, Order } from '../store/index.js';
import { readFlow, type ThreeDsStep } from './following/flow-state.js';

export type ThreeDsPath = 'none' | 'frictionless' | 'method-timeout' | ThreeDsStep;

/** How a payment attempt met 3-D Secure: the bank pages it showed, else the 3DS Method's result. */
export function threeDsPath(order: Order): ThreeDsPath {
  const shown = readFlow(order).shown ?? [];
  for (const step of ['challenge', '3ds1', 'gateway-page'] as const)
    if (shown.includes(step)) return step;
  if (order.threeDsCompInd === 'N') return 'method-timeout';
  return order.threeDsCompInd ? 'frictionless' : 'none';
}

/** What a failed gateway call was: its answer never came, a 5xx, another status, or a refusal. */
function errorKind(exchange: GatewayExchange): string {
  const status = exchange.httpStatus;
  if (status === undefined) return 'network';
  if (status >= 500) return 'http-5xx';
  if (status >= 400 && exchange.error?.code !== 'gateway-validation') return 'http-4xx';
  return 'refused';
}

export function createMetrics(store: () => CheckoutStore, withProcess: boolean) {
  const registers = [new Registry()];
  const [register] = registers as [Registry];
  if (withProcess) collectDefaultMetrics({ register });
  const payments = new Counter({
    name: 'pay_checkout_payments_total',
    help: 'Payment attempts that reached a final status, by outcome and 3-D Secure path.',
    labelNames: ['outcome', 'three_ds'] as const,
    registers,
  });
  const attempts = new Histogram({
    name: 'pay_checkout_attempts_per_order',
    help: 'Payment attempts of an order when it was approved or ended without approval.',
    buckets: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    registers,
  });
  const gatewayDuration = new Histogram({
    name: 'pay_checkout_gateway_request_duration_seconds',
    help: 'Gateway requests, from send to answer, by operation.',
    labelNames: ['operation'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const gatewayErrors = new Counter({
    name: 'pay_checkout_gateway_errors_total',
    help: 'Gateway requests that failed: network, http-5xx, http-4xx or refused (validation-error).',
    labelNames: ['operation', 'kind'] as const,
    registers,
  });
  const callbackLag = new Histogram({
    name: 'pay_checkout_callback_lag_seconds',
    help: "From an order's last known change to the arrival of its gateway callback.",
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 1800, 3600],
    registers,
  });
  const reconcilerPasses = new Counter({
    name: 'pay_checkout_reconciler_passes_total',
    help: 'Reconciler passes run by this instance.',
    registers,
  });
  const reconcilerItems = new Counter({
    name: 'pay_checkout_reconciler_items_total',
    help: 'Orders, operations and reversals the reconciler looked at.',
    registers,
  });
  /**
   * A backlog read from the store at each scrape, once for both its gauges: how many, and the age
   * in seconds of the oldest (0: none).
   */
  const backlog = (
    name: string,
    what: string,
    read: (store: CheckoutStore) => Promise<Backlog>,
  ) => {
    // The count first: a registry collects in order, and its read sets the age as well.
    const count = new Gauge({
      name,
      help: `${what[0]?.toUpperCase()}${what.slice(1)} now.`,
      registers,
      async collect() {
        const { count, oldestSeconds } = await read(store());
        this.set(count);
        oldest.set(oldestSeconds);
      },
    });
    const oldest = new Gauge({
      name: `${name}_oldest_seconds`,
      help: `Age of the oldest of the ${what} (0: none).`,
      registers,
    });
    return count;
  };
  backlog('pay_checkout_operations_unknown', 'money operations whose outcome is unknown', (s) =>
    s.operations.unknownBacklog(),
  );
  backlog('pay_checkout_webhooks_undelivered', 'webhook events not delivered yet', (s) =>
    s.webhooks.undeliveredBacklog(),
  );

  return {
    register,
    /** An attempt moved to its final status (by whoever won that move). */
    payment(order: Order): void {
      payments.inc({ outcome: order.status, three_ds: threeDsPath(order) });
    },
    /** An order was approved (kept) or ended without approval after `order.attempt` attempts. */
    orderSettled(order: Order): void {
      attempts.observe(order.attempt);
    },
    gateway(exchange: GatewayExchange): void {
      gatewayDuration.observe({ operation: exchange.operation }, exchange.durationMs / 1000);
      if (exchange.error)
        gatewayErrors.inc({ operation: exchange.operation, kind: errorKind(exchange) });
    },
    callback(order: Order): void {
      callbackLag.observe(Math.max(0, (Date.now() - order.updatedAt.getTime()) / 1000));
    },
    reconciled(items: number): void {
      reconcilerPasses.inc();
      reconcilerItems.inc(items);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
