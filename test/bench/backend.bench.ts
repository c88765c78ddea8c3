/**
 * Backend throughput and latency over loopback HTTP, each beside a bare Express handler measured
 * in the same process and the same run (the ratio is the cost of our stack, and survives the
 * noise of a shared machine better than the absolute figure):
 *   - POST /v1/checkout-sessions   the merchant creates a session (API key)
 *   - GET  /widget/session         the widget reads it (session JWT)
 *   - pay cycle                    POST /widget/pay with the approved test card, then
 *                                  GET /widget/next until final, through the sandbox gateway
 * On PGlite, and on PostgreSQL when it answers on loopback (fresh schemas, dropped after).
 *
 *   node --import tsx test/bench/backend.bench.ts [--quick] [--json FILE]
 */
import { flag, isMain, writeJson } from './lib/cli.js';
import { type CycleResult, runCycles } from './lib/cycles.js';
import { httpLoad, type LoadResult } from './lib/http-load.js';
import { fmt, mib, ratio, table } from './lib/markdown.js';
import { probePostgres, redact, serverVersion } from './lib/postgres.js';
import { sessionPool } from './lib/session-pool.js';
import {
  approvedCard,
  createSession,
  payUntilFinal,
  sessionBody,
  uniqueOrderId,
  widgetAuth,
} from './lib/shopper.js';
import { type Engine, type Stack, startStack } from './stack/start.js';

export interface BackendOptions {
  durationS: number;
  connections: number;
  payConcurrency: number;
  /** The sandbox's emulated processing delay (0: only our stack and the emulator count). */
  processingDelayMs: number;
}

export interface EngineResult {
  engine: 'pglite' | 'postgres';
  database: string;
  startMs: number;
  bare: LoadResult;
  createSession: LoadResult;
  readSession: LoadResult;
  payCycle: CycleResult & { sessionsMadeInline: number; statuses: Record<string, number> };
  rssAfter: { backend: number; sandbox: number };
  heapUsedAfter: { backend: number; sandbox: number };
}

export interface BackendResult {
  options: BackendOptions;
  engines: EngineResult[];
  skipped: string[];
}

async function benchEngine(
  engine: Engine,
  database: string,
  options: BackendOptions,
): Promise<EngineResult> {
  const stack: Stack = await startStack(engine, options.processingDelayMs);
  try {
    const { backendUrl, merchantApiKey } = stack;
    const card = await approvedCard(stack.sandboxUrl);
    const merchantHeaders = {
      Authorization: `Bearer ${merchantApiKey}`,
      'Content-Type': 'application/json',
    };
    const session = await createSession(backendUrl, merchantApiKey);
    const bareSpec = { url: `${backendUrl}/bare`, connections: options.connections };
    const createSpec = {
      url: `${backendUrl}/v1/checkout-sessions`,
      method: 'POST' as const,
      headers: merchantHeaders,
      nextBody: () => JSON.stringify(sessionBody(uniqueOrderId())),
      connections: options.connections,
    };
    const readSpec = {
      url: `${backendUrl}/widget/session`,
      headers: widgetAuth(session.token),
      connections: options.connections,
    };
    const statuses: Record<string, number> = {};
    const pay = async (token: string) => {
      const status = await payUntilFinal(backendUrl, token, card);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status !== 'approved') throw new Error(`the approved card ended ${status}`);
    };

    // Warm-up: every path once under load, so the timed runs meet a JIT-compiled server.
    await httpLoad({ ...bareSpec, durationS: 1 });
    await httpLoad({ ...createSpec, durationS: 1 });
    await httpLoad({ ...readSpec, durationS: 1 });
    for (let i = 0; i < 10; i++) await pay((await createSession(backendUrl, merchantApiKey)).token);
    for (const key of Object.keys(statuses)) delete statuses[key];
    const pool = await sessionPool(backendUrl, merchantApiKey, 40 * options.durationS);

    const bare = await httpLoad({ ...bareSpec, durationS: options.durationS });
    const created = await httpLoad({ ...createSpec, durationS: options.durationS });
    const read = await httpLoad({ ...readSpec, durationS: options.durationS });
    const cycles = await runCycles(
      async () => pay(await pool.take()),
      options.payConcurrency,
      options.durationS * 1000,
    );
    const memory = await stack.memory();
    return {
      engine: engine.name,
      database,
      startMs: stack.startMs,
      bare,
      createSession: created,
      readSession: read,
      payCycle: { ...cycles, sessionsMadeInline: pool.madeInline, statuses },
      rssAfter: { backend: memory.backend.rss, sandbox: memory.sandbox.rss },
      heapUsedAfter: { backend: memory.backend.heapUsed, sandbox: memory.sandbox.heapUsed },
    };
  } finally {
    await stack.stop();
  }
}

export async function runBackendBench(options: BackendOptions): Promise<BackendResult> {
  const engines: EngineResult[] = [];
  const skipped: string[] = [];
  engines.push(
    await benchEngine({ name: 'pglite' }, 'PGlite (data folder in a temp dir)', options),
  );
  const pg = await probePostgres();
  if (pg.url) {
    const version = await serverVersion(pg.url);
    engines.push(
      await benchEngine(
        { name: 'postgres', url: pg.url },
        `PostgreSQL ${version} at ${redact(pg.url)}`,
        options,
      ),
    );
  } else {
    skipped.push(`PostgreSQL: ${pg.skipped}`);
  }
  return { options, engines, skipped };
}

const failures = (r: LoadResult) => r.errors + r.non2xx + r.timeouts;

export function backendTable(result: BackendResult): string {
  const rows = result.engines.flatMap((e) => {
    const base = e.bare.rps;
    const load = (name: string, r: LoadResult) => [
      e.engine,
      name,
      r.rps,
      r.p50Ms,
      r.p99Ms,
      ratio(r.rps, base),
      failures(r),
    ];
    return [
      load('bare Express handler (GET /bare)', e.bare),
      load('create session (POST /v1/checkout-sessions)', e.createSession),
      load('read session (GET /widget/session)', e.readSession),
      [
        e.engine,
        `pay cycle: /widget/pay + /widget/next until final (${e.payCycle.concurrency} concurrent)`,
        e.payCycle.perSec,
        e.payCycle.p50Ms,
        e.payCycle.p99Ms,
        ratio(e.payCycle.perSec, base),
        e.payCycle.errors,
      ],
    ];
  });
  return table(
    ['engine', 'case', 'per second', 'p50 ms', 'p99 ms', 'ratio to bare', 'failures'],
    rows,
  );
}

export function memoryTable(result: BackendResult): string {
  return table(
    ['engine', 'backend RSS after load', 'backend heap used', 'sandbox RSS after load', 'start ms'],
    result.engines.map((e) => [
      e.engine,
      mib(e.rssAfter.backend),
      mib(e.heapUsedAfter.backend),
      mib(e.rssAfter.sandbox),
      fmt(e.startMs),
    ]),
  );
}

if (isMain(import.meta.url)) {
  const quick = flag('--quick');
  const result = await runBackendBench({
    durationS: quick ? 2 : 5,
    connections: 10,
    payConcurrency: 8,
    processingDelayMs: 0,
  });
  console.log(backendTable(result));
  console.log(memoryTable(result));
  for (const line of result.skipped) console.log(`skipped: ${line}`);
  writeJson(result);
}
