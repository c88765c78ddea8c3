/**
 * Load test (not part of `npm test`, nor of `npm run bench` unless `-- --load`): 60 s of mixed
 * open-loop traffic at a stated rate against the sandbox + backend stack, every error counted
 * (there must be none), the backend's RSS sampled every 5 s (it must stay flat). Appends its
 * section to test/bench/RESULTS.md.
 *
 *   node --import tsx test/bench/load.ts [--postgres] [--quick] [--json FILE]
 */

import { BACKEND_NODE_FLAGS } from './stack/deployment.js';
import { type Engine, startStack } from './stack/start.js';
import {
  approvedCard,
  createSession,
  payUntilFinal,
  widgetAuth,
} from './support/checkout-client.js';
import { flag, writeJson } from './support/cli.js';
import { machineSection } from './support/machine-section.js';
import { fmt, mib, table } from './support/markdown.js';
import { probePostgres } from './support/postgres.js';
import { appendResults, LOAD_HEADING } from './support/results-file.js';
import { percentile } from './support/stats.js';

/** Arrivals per second of each kind: about a third of what the backend bench measured here. */
const RATE = { create: 5, read: 20, pay: 3 };
const TICK_MS = 100;
const SAMPLE_EVERY_MS = 5_000;

type Kind = keyof typeof RATE;

/** What run.ts reads back (`--json FILE`): the backend's RSS at the end of the run. */
export interface LoadResult {
  engine: Engine['name'];
  durationS: number;
  errors: number;
  rssAfterMiB: number;
}

interface KindStats {
  done: number;
  errors: number;
  latencies: number[];
  firstErrors: string[];
}

const quick = flag('--quick');
const durationMs = quick ? 15_000 : 60_000;

let engine: Engine = { name: 'pglite' };
if (flag('--postgres')) {
  const pg = await probePostgres();
  if (!pg.url) throw new Error(`--postgres: ${pg.skipped}`);
  engine = { name: 'postgres', url: pg.url };
}

const header = machineSection(
  `node --import tsx test/bench/load.ts ${process.argv.slice(2).join(' ')}`.trim(),
);
const stack = await startStack(engine, 0);
try {
  const card = await approvedCard(stack.sandboxUrl);
  const stats: Record<Kind, KindStats> = {
    create: { done: 0, errors: 0, latencies: [], firstErrors: [] },
    read: { done: 0, errors: 0, latencies: [], firstErrors: [] },
    pay: { done: 0, errors: 0, latencies: [], firstErrors: [] },
  };
  // Sessions the reads rotate over: the ones the creations make (plus one to start with).
  const tokens: string[] = [(await createSession(stack.backendUrl, stack.merchantApiKey)).token];

  const work: Record<Kind, () => Promise<void>> = {
    create: async () => {
      tokens.push((await createSession(stack.backendUrl, stack.merchantApiKey)).token);
      if (tokens.length > 500) tokens.shift();
    },
    read: async () => {
      const token = tokens[Math.floor(Math.random() * tokens.length)] as string;
      const res = await fetch(`${stack.backendUrl}/widget/session`, { headers: widgetAuth(token) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`read: HTTP ${res.status}`);
    },
    // A whole checkout: a new session, then pay with the approved card until final.
    pay: async () => {
      const { token } = await createSession(stack.backendUrl, stack.merchantApiKey);
      const status = await payUntilFinal(stack.backendUrl, token, card);
      if (status !== 'approved') throw new Error(`pay: ended ${status}`);
    },
  };

  let inFlight = 0;
  let maxInFlight = 0;
  const pending = new Set<Promise<void>>();
  const launch = (kind: Kind) => {
    const s = stats[kind];
    const t0 = performance.now();
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const p = work[kind]()
      .then(
        () => {
          s.done += 1;
          s.latencies.push(performance.now() - t0);
        },
        (error: unknown) => {
          s.errors += 1;
          if (s.firstErrors.length < 3) s.firstErrors.push(String((error as Error).message));
        },
      )
      .finally(() => {
        inFlight -= 1;
        pending.delete(p);
      });
    pending.add(p);
  };

  const samples: { atS: number; rss: number; heapUsed: number; sandboxRss: number }[] = [];
  const sample = async (atS: number) => {
    const m = await stack.memory();
    samples.push({
      atS,
      rss: m.backend.rss,
      heapUsed: m.backend.heapUsed,
      sandboxRss: m.sandbox.rss,
    });
  };

  console.log(
    `load: ${durationMs / 1000} s on ${engine.name}, per second: ${RATE.create} creations, ${RATE.read} reads, ${RATE.pay} pay cycles`,
  );
  await sample(0);
  const started = performance.now();
  // Open loop: arrivals keep their schedule whatever the answers do, as real shoppers would.
  const owed: Record<Kind, number> = { create: 0, read: 0, pay: 0 };
  const ticker = setInterval(() => {
    for (const kind of Object.keys(RATE) as Kind[]) {
      owed[kind] += (RATE[kind] * TICK_MS) / 1000;
      while (owed[kind] >= 1) {
        owed[kind] -= 1;
        launch(kind);
      }
    }
  }, TICK_MS);
  const sampler = setInterval(() => {
    void sample(Math.round((performance.now() - started) / 1000));
  }, SAMPLE_EVERY_MS);
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  clearInterval(ticker);
  clearInterval(sampler);
  await Promise.allSettled([...pending]);
  const drainS = (performance.now() - started - durationMs) / 1000;
  await sample(Math.round((performance.now() - started) / 1000));

  const errors = Object.values(stats).reduce((n, s) => n + s.errors, 0);
  const afterWarm = samples.filter((s) => s.atS >= 10);
  const first = afterWarm[0] ?? samples[0];
  const last = samples.at(-1);
  const growth = first && last ? (last.rss - first.rss) / first.rss : Number.NaN;

  const section = `${LOAD_HEADING}: ${durationMs / 1000} s mixed traffic on ${engine.name}${quick ? ' (quick smoke run)' : ''}

${header}

Open-loop arrivals every ${TICK_MS} ms at ${RATE.create} session creations, ${RATE.read} session reads
and ${RATE.pay} pay cycles (each a new session, then pay with the approved card until final) per
second, against the sandbox + backend processes of the backend bench (same set-up and options;
the backend with \`${BACKEND_NODE_FLAGS.join(' ')}\`, docs/backend-memory.md).
Errors: **${errors}**${errors === 0 ? ' (none, as required)' : ' (must be zero)'}. Most requests in flight at once: ${maxInFlight};
in-flight work drained ${drainS.toFixed(1)} s after the last arrival.

${table(
  ['kind', 'done', 'errors', 'per second', 'p50 ms', 'p99 ms'],
  (Object.keys(stats) as Kind[]).map((kind) => {
    const s = stats[kind];
    return [
      kind,
      s.done,
      s.errors,
      s.done / (durationMs / 1000),
      percentile(s.latencies, 50),
      percentile(s.latencies, 99),
    ];
  }),
)}
${
  errors
    ? `\nFirst errors: ${Object.values(stats)
        .flatMap((s) => s.firstErrors)
        .join(' / ')}\n`
    : ''
}
Backend memory every ${SAMPLE_EVERY_MS / 1000} s (process.memoryUsage() of the backend process; the
sandbox's RSS beside it). RSS change from the 10 s sample to the end: **${(growth * 100).toFixed(1)} %**.

${table(
  ['t (s)', 'backend RSS', 'backend heap used', 'sandbox RSS'],
  samples.map((s) => [fmt(s.atS), mib(s.rss), mib(s.heapUsed), mib(s.sandboxRss)]),
)}
`;
  appendResults(section);
  console.log(section);
  writeJson({
    engine: engine.name,
    durationS: durationMs / 1000,
    errors,
    rssAfterMiB: (last?.rss ?? Number.NaN) / 2 ** 20,
  } satisfies LoadResult);
  process.exitCode = errors === 0 ? 0 : 1;
} finally {
  await stack.stop();
}
