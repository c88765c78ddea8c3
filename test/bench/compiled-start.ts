/**
 * The backend's command three ways: through tsx (the sources, as `npm start` ran them before),
 * bundled from the sources (scripts/start.mjs, as `npm start` runs them now) and as compiled code
 * (bin/pay-checkout.mjs after `npm run build`, as `npm run server` runs it; left out when dist/node
 * is missing), SANDBOX=1 on one existing DATA_DIR, interleaved. Prints, per way, the median time
 * from the spawn to the first /readyz 200 (polled every 20 ms), the CPU time the process had used
 * by then (less moved by other work on the machine than the wall time) and its RSS one second
 * later. The first start of each is left out (it makes the data folder, or the bundle).
 *   [npm run build &&] node --import tsx test/bench/compiled-start.ts
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const COMMANDS: Record<string, string[]> = {
  tsx: ['--max-semi-space-size=8', '--import', 'tsx', 'server/src/main.ts', 'server'],
  bundled: ['--max-semi-space-size=8', 'scripts/start.mjs', 'server'],
};
if (existsSync(join(ROOT, 'dist/node/server/src/main.js')))
  COMMANDS.compiled = ['--max-semi-space-size=8', 'bin/pay-checkout.mjs', 'server'];
else console.log('dist/node is missing: the compiled way is left out (npm run build makes it)');
const RUNS = 4;

async function once(args: string[], dataDir: string): Promise<[number, number, number]> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      SANDBOX: '1',
      PORT: '3931',
      SANDBOX_PORT: '4931',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  for (;;) {
    const ok = await fetch('http://127.0.0.1:3931/readyz').then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - started;
  // utime + stime of every thread, in clock ticks (100 a second on Linux).
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuMs = (Number(fields[11]) + Number(fields[12])) * 10;
  await new Promise((r) => setTimeout(r, 1_000));
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const rssMiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return [ms, cpuMs, rssMiB];
}

const dataDir = mkdtempSync(join(tmpdir(), 'compiled-start-'));
try {
  const results: Record<string, [number, number, number][]> = Object.fromEntries(
    Object.keys(COMMANDS).map((name) => [name, []]),
  );
  for (let run = 0; run <= RUNS; run++) {
    for (const [name, args] of Object.entries(COMMANDS)) {
      const measured = await once(args, dataDir);
      if (run > 0) results[name]?.push(measured);
    }
  }
  for (const [name, runs] of Object.entries(results)) {
    const median = (i: 0 | 1 | 2) =>
      runs.map((r) => r[i]).sort((a, b) => a - b)[runs.length >> 1] as number;
    console.log(
      `${name}: /readyz 200 after ${(median(0) / 1000).toFixed(2)} s, CPU ${(median(1) / 1000).toFixed(2)} s, RSS ${Math.round(median(2))} MiB (median of ${runs.length})`,
    );
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
