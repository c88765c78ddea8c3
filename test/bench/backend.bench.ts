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

import { type Engine, type Stack, startStack } from './stack/start.js';
import {
  approvedCard,
  createSession,
  payUntilFinal,
  sessionBody,
  uniqueOrderId,
  widgetAuth,
} from './support/checkout-client.js';
import { flag, isMain, writeJson } from './support/cli.js';
import { type CycleResult, runCycles } from './support/cycles.js';
import { httpLoad, type LoadResult } from './support/http-load.js';
import { fmt, mib, ratio, table } from './support/markdown.js';
import { probePostgres, redact, serverVersion } from './support/postgres.js';
import { OTHER, type ProfileSummary, profileDuring, summarizeProfile } from './support/profile.js';
import { SERVER_PARTS } from './support/server-parts.js';
import { sessionPool } from './support/session-pool.js';

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
  /** Where the CPU time went: the read and pay runs again, with the profilers on. */
  profile: {
    durationS: number;
    bare: { requests: number; backend: ProfileSummary };
    read: { requests: number; backend: ProfileSummary };
    pay: { cycles: number; backend: ProfileSummary; sandbox: ProfileSummary };
  };
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
    const pool = await sessionPool(backendUrl, merchantApiKey, 120 * options.durationS);

    const bare = await httpLoad({ ...bareSpec, durationS: options.durationS });
    const created = await httpLoad({ ...createSpec, durationS: options.durationS });
    const read = await httpLoad({ ...readSpec, durationS: options.durationS });
    const cycles = await runCycles(
      async () => pay(await pool.take()),
      options.payConcurrency,
      options.durationS * 1000,
    );
    const memory = await stack.memory();
    const payStatuses = { ...statuses };

    // Where the time went: the same read and pay runs once more with each server's CPU profiler
    // on, after the timed runs, so no figure above was measured under the profiler.
    const profileS = Math.min(options.durationS, 4);
    const bareProfile = await profileDuring([backendUrl], () =>
      httpLoad({ ...bareSpec, durationS: profileS }),
    );
    const readProfile = await profileDuring([backendUrl], () =>
      httpLoad({ ...readSpec, durationS: profileS }),
    );
    const profilePool = await sessionPool(backendUrl, merchantApiKey, 120 * profileS);
    const payProfile = await profileDuring([backendUrl, stack.sandboxUrl], () =>
      runCycles(async () => pay(await profilePool.take()), options.payConcurrency, profileS * 1000),
    );
    const [bareBackend] = bareProfile.profiles;
    const [readBackend] = readProfile.profiles;
    const [payBackend, paySandbox] = payProfile.profiles;
    if (!bareBackend || !readBackend || !payBackend || !paySandbox) {
      throw new Error('a profile is missing');
    }
    return {
      engine: engine.name,
      database,
      startMs: stack.startMs,
      bare,
      createSession: created,
      readSession: read,
      payCycle: { ...cycles, sessionsMadeInline: pool.madeInline, statuses: payStatuses },
      rssAfter: { backend: memory.backend.rss, sandbox: memory.sandbox.rss },
      heapUsedAfter: { backend: memory.backend.heapUsed, sandbox: memory.sandbox.heapUsed },
      profile: {
        durationS: profileS,
        bare: {
          requests: bareProfile.result.requests,
          backend: summarizeProfile(bareBackend, SERVER_PARTS),
        },
        read: {
          requests: readProfile.result.requests,
          backend: summarizeProfile(readBackend, SERVER_PARTS),
        },
        pay: {
          cycles: payProfile.result.cycles,
          backend: summarizeProfile(payBackend, SERVER_PARTS),
          sandbox: summarizeProfile(paySandbox, SERVER_PARTS),
        },
      },
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

/**
 * One engine's profiles: each part's share of the busy CPU time and its time per read or per pay
 * cycle (µs; the profiler's own overhead is in its row, so the figures are a little high).
 */
export function profileTable(e: EngineResult): string {
  const { bare, read, pay } = e.profile;
  const names = [
    ...new Set([
      ...read.backend.parts.map((p) => p.name),
      ...bare.backend.parts.map((p) => p.name),
      ...pay.backend.parts.map((p) => p.name),
      ...pay.sandbox.parts.map((p) => p.name),
    ]),
  ].sort((a, b) => (a === OTHER ? 1 : b === OTHER ? -1 : 0));
  const of = (s: ProfileSummary, name: string) => s.parts.find((p) => p.name === name);
  const pct = (share: number | undefined) =>
    share === undefined || share < 0.0005 ? null : `${(share * 100).toFixed(1)} %`;
  const per = (ms: number | undefined, count: number) =>
    ms === undefined || count === 0 || ms * 1000 < count ? null : (ms * 1000) / count;
  const busy = (s: ProfileSummary, count: number) => (count ? (s.busyMs * 1000) / count : null);
  return table(
    [
      'part',
      'bare: µs per request',
      'read: share',
      'read: µs per request',
      'pay: backend share',
      'pay: backend µs per cycle',
      'pay: sandbox share',
      'pay: sandbox µs per cycle',
    ],
    [
      ...names.map((name) => [
        name,
        per(of(bare.backend, name)?.ms, bare.requests),
        pct(of(read.backend, name)?.share),
        per(of(read.backend, name)?.ms, read.requests),
        pct(of(pay.backend, name)?.share),
        per(of(pay.backend, name)?.ms, pay.cycles),
        pct(of(pay.sandbox, name)?.share),
        per(of(pay.sandbox, name)?.ms, pay.cycles),
      ]),
      [
        '**busy CPU, all parts**',
        busy(bare.backend, bare.requests),
        '100 %',
        busy(read.backend, read.requests),
        '100 %',
        busy(pay.backend, pay.cycles),
        '100 %',
        busy(pay.sandbox, pay.cycles),
      ],
    ],
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
  for (const e of result.engines)
    console.log(`\n${e.engine}: where the time went\n${profileTable(e)}`);
  for (const line of result.skipped) console.log(`skipped: ${line}`);
  writeJson(result);
}
