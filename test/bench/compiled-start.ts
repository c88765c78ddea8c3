/**
 * `npm run server` before and after the backend shipped as JavaScript: the same command through
 * tsx (the sources) and as compiled code (bin/pay-checkout.mjs after `npm run build`), SANDBOX=1
 * on one existing DATA_DIR, interleaved. Prints, per run, the time from the spawn to the first
 * /readyz 200 (polled every 20 ms) and the process's RSS one second later. The first start of
 * each is left out (it makes the data folder).
 *   npm run build && node --import tsx test/bench/compiled-start.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const COMMANDS = {
  tsx: ['--max-semi-space-size=8', '--import', 'tsx', 'server/src/main.ts', 'server'],
  compiled: ['--max-semi-space-size=8', 'bin/pay-checkout.mjs', 'server'],
};
const RUNS = 4;

async function once(args: string[], dataDir: string): Promise<[number, number]> {
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
  await new Promise((r) => setTimeout(r, 1_000));
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const rssMiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return [ms, rssMiB];
}

const dataDir = mkdtempSync(join(tmpdir(), 'compiled-start-'));
try {
  const results: Record<string, [number, number][]> = { tsx: [], compiled: [] };
  for (let run = 0; run <= RUNS; run++) {
    for (const [name, args] of Object.entries(COMMANDS)) {
      const measured = await once(args, dataDir);
      if (run > 0) results[name]?.push(measured);
    }
  }
  for (const [name, runs] of Object.entries(results)) {
    const median = (i: 0 | 1) => runs.map((r) => r[i]).sort((a, b) => a - b)[runs.length >> 1];
    console.log(
      `${name}: /readyz 200 after ${(median(0)! / 1000).toFixed(2)} s, RSS ${Math.round(median(1)!)} MiB (median of ${runs.length})`,
    );
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
