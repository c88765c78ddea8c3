/**
 * `npm start` as a developer runs it: how long until `/readyz` answers 200, and how much resident
 * memory the one process holds (backend + embedded sandbox + demo), on a fresh DATA_DIR and again
 * on the same folder after a restart:
 *   - start: spawn the command of package.json's `start` script (`node … scripts/start.mjs
 *     start`: no npm process in between), poll `/readyz` every 25 ms from the spawn;
 *   - traffic, e2e-like: the demo page and widget file, checkout sessions made through the
 *     merchant API and paid through the widget API with the sandbox's test cards (approved,
 *     declined, insufficient funds, unknown then approved), a few order list reads;
 *   - memory from /proc/PID/status (Linux): VmRSS after start and after traffic, VmHWM (the
 *     process's peak). The first start initialises its database in a child process: the peak of
 *     the process and its children together is sampled every 100 ms.
 *
 *   node --import tsx test/bench/start-memory.ts [--quick] [--json FILE]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALLOWED_ORIGIN } from './stack/start.js';
import { createSession, payUntilFinal, type TestCard } from './support/checkout-client.js';
import { flag, isMain, writeJson } from './support/cli.js';
import { fmt, table } from './support/markdown.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const SCENARIOS = ['approved', 'declined', 'insufficient-funds', 'unknown-then-approved'];
/** The memory goal is set after this many payments (test/bench/support/footprint-targets.ts). */
export const START_PAYMENTS = 40;

export interface StartRun {
  label: string;
  /** Spawn to the first 200 from /readyz. */
  readyMs: number;
  /**
   * CPU time the process had used by then, its exited children's (a new database's initdb)
   * included: on a quiet machine about the wall time (the start is mostly one thread), and much
   * less moved than the wall time by other work on a busy one.
   */
  readyCpuMs: number;
  rssReadyMiB: number;
  rssAfterTrafficMiB: number;
  /** VmHWM of the server process at the end. */
  peakMiB: number;
  /** Sampled peak of the server process and its children together. */
  treePeakMiB: number;
  /** The machine's 1-minute load average when the start began (2 cores: above 2 is a queue). */
  loadAtStart: number;
  payments: Record<string, number>;
}

export interface StartResult {
  payments: number;
  concurrency: number;
  runs: StartRun[];
}

/** utime + stime of the process and of its waited-for children, in ms (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return ((fields[11] ?? 0) + (fields[12] ?? 0) + (fields[13] ?? 0) + (fields[14] ?? 0)) * 10;
}

function status(pid: number): { rss: number; hwm: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

/** RSS of `pid` and its descendants, in MiB (a process gone meanwhile counts 0). */
function treeRss(pid: number): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/PID/stat is the parent; the command (field 2) may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  let total = 0;
  const visit = (p: number) => {
    try {
      total += status(p).rss;
    } catch {}
    for (const [child, parent] of parents) if (parent === p) visit(child);
  };
  visit(pid);
  return total;
}

function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePromise(port));
    });
  });
}

/** The arguments of `npm start`'s node command, read from package.json. */
function startArguments(): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [command, ...args] = (manifest.scripts.start ?? '').split(/\s+/);
  if (command !== 'node')
    throw new Error(`npm start runs "${command}", not node: update this bench`);
  return args;
}

interface Server {
  process: ChildProcess;
  pid: number;
  backendUrl: string;
  sandboxUrl: string;
  readyMs: number;
  readyCpuMs: number;
  treePeakMiB: number;
  stop(): Promise<void>;
}

async function startServer(dataDir: string, args: string[]): Promise<Server> {
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const backendUrl = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      SANDBOX_PORT: String(sandboxPort),
      HOST: '127.0.0.1',
      PUBLIC_URL: backendUrl,
      ALLOWED_ORIGINS: `${backendUrl},${ALLOWED_ORIGIN}`,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolvePromise) => child.once('exit', () => resolvePromise()));
  const pid = child.pid as number;
  let treePeakMiB = 0;
  const sampler = setInterval(() => {
    treePeakMiB = Math.max(treePeakMiB, treeRss(pid));
  }, 100);
  const stop = async () => {
    clearInterval(sampler);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(force);
  };
  try {
    const deadline = started + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
      if (performance.now() > deadline) throw new Error('no /readyz 200 within 120 s');
      const ready = await fetch(`${backendUrl}/readyz`).then(
        async (res) => {
          await res.body?.cancel();
          return res.status === 200;
        },
        () => false,
      );
      if (ready) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const readyMs = performance.now() - started;
    const readyCpuMs = cpuMs(pid);
    treePeakMiB = Math.max(treePeakMiB, treeRss(pid));
    return {
      process: child,
      pid,
      backendUrl,
      sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
      readyMs,
      readyCpuMs,
      get treePeakMiB() {
        return Math.max(treePeakMiB, treeRss(pid));
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function get(url: string, headers: Record<string, string> = {}): Promise<void> {
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
}

/** What a QA session does, compressed: pages, then payments with several outcomes. */
async function traffic(
  server: Server,
  apiKey: string,
  payments: number,
  concurrency: number,
): Promise<Record<string, number>> {
  await get(`${server.backendUrl}/`);
  await get(`${server.backendUrl}/pay-checkout.js`);
  const cards = (await (
    await fetch(`${server.sandboxUrl}/sandbox/test-cards`)
  ).json()) as TestCard[];
  const bySCenario = SCENARIOS.map((name) => {
    const card = cards.find((c) => c.scenario === name);
    if (!card) throw new Error(`the sandbox lists no ${name} test card`);
    return card;
  });
  const outcomes: Record<string, number> = {};
  let next = 0;
  const shopper = async () => {
    while (next < payments) {
      const card = bySCenario[next % bySCenario.length] as TestCard;
      next += 1;
      const session = await createSession(server.backendUrl, apiKey);
      const final = await payUntilFinal(server.backendUrl, session.token, card);
      outcomes[final] = (outcomes[final] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, shopper));
  for (let i = 0; i < 5; i++) {
    await get(`${server.backendUrl}/v1/orders?limit=50`, { Authorization: `Bearer ${apiKey}` });
  }
  return outcomes;
}

async function measure(
  label: string,
  args: string[],
  dataDir: string,
  payments: number,
  concurrency: number,
): Promise<StartRun> {
  const loadAtStart = loadavg()[0] ?? 0;
  const server = await startServer(dataDir, args);
  try {
    const rssReady = status(server.pid).rss;
    const secrets = JSON.parse(await readFile(join(dataDir, 'dev-secrets.json'), 'utf8')) as {
      merchantApiKey: string;
    };
    const outcomes = await traffic(server, secrets.merchantApiKey, payments, concurrency);
    const after = status(server.pid);
    return {
      label,
      readyMs: server.readyMs,
      readyCpuMs: server.readyCpuMs,
      rssReadyMiB: rssReady,
      rssAfterTrafficMiB: after.rss,
      peakMiB: after.hwm,
      treePeakMiB: server.treePeakMiB,
      loadAtStart,
      payments: outcomes,
    };
  } finally {
    await server.stop();
  }
}

/**
 * `npm start` as package.json runs it, and, interleaved with it, the same command with V8's default
 * WebAssembly tiers (without `--liftoff-only`), each on a folder of its own: new, then restarted.
 */
export async function runStartBench(payments: number, concurrency: number): Promise<StartResult> {
  const ours = startArguments();
  const variants = [{ name: 'npm start', args: ours }];
  if (ours.includes('--liftoff-only')) {
    variants.push({
      name: 'without --liftoff-only',
      args: ours.filter((a) => a !== '--liftoff-only'),
    });
  }
  const root = await mkdtemp(join(tmpdir(), 'pay-checkout-start-'));
  try {
    const runs: StartRun[] = [];
    for (const when of ['new DATA_DIR', 'same DATA_DIR, restarted']) {
      for (const [i, variant] of variants.entries()) {
        const label = `${variant.name}, ${when}`;
        runs.push(await measure(label, variant.args, join(root, String(i)), payments, concurrency));
      }
    }
    return { payments, concurrency, runs };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export function startTable(result: StartResult): string {
  return table(
    [
      'npm start',
      '/readyz 200 after',
      'CPU time by then',
      'RSS when ready',
      `RSS after ${result.payments} payments`,
      'process peak (VmHWM)',
      'peak with children',
      'load average at start',
    ],
    result.runs.map((r) => [
      r.label,
      `${fmt(r.readyMs / 1000)} s`,
      `${fmt(r.readyCpuMs / 1000)} s`,
      `${fmt(r.rssReadyMiB)} MiB`,
      `${fmt(r.rssAfterTrafficMiB)} MiB`,
      `${fmt(r.peakMiB)} MiB`,
      `${fmt(r.treePeakMiB)} MiB`,
      r.loadAtStart.toFixed(2),
    ]),
  );
}

if (isMain(import.meta.url)) {
  const result = await runStartBench(flag('--quick') ? 20 : START_PAYMENTS, 4);
  console.log(startTable(result));
  for (const run of result.runs) console.log(`${run.label}: ${JSON.stringify(run.payments)}`);
  writeJson(result);
}
