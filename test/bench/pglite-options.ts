/**
 * What PGlite's start-up and memory options cost, for docs/pglite-options.md: each case runs in a
 * fresh process (WASM memory and V8 state never carry over), interleaved round by round, and the
 * median of the rounds is reported. A case opens PGlite, migrates the backend's and the sandbox's
 * schemas into it (the shared database of `npm start`), then runs a small workload twice: 1,000
 * jsonb inserts, 1,000 primary-key reads, 200 transactions that lock and update a row.
 * Memory is VmRSS / VmHWM of that process (Linux /proc), in MiB.
 *
 *   node --import tsx test/bench/pglite-options.ts [--quick] [--json FILE]
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { SANDBOX_MIGRATION_SET, SANDBOX_MIGRATIONS } from '../../server/src/sandbox/schema.js';
import { PGLITE_SETTINGS, pgliteStartParams } from '../../server/src/store/engine/pglite-engine.js';
import { initialiseDataDir } from '../../server/src/store/engine/pglite-folder.js';
import { sharePGlite } from '../../server/src/store/engine/shared-pglite.js';
import { type Database, migrate, migrateCheckoutStore } from '../../server/src/store/index.js';
import { flag, isMain, option, writeJson } from './support/cli.js';
import { fmt, table } from './support/markdown.js';
import { median } from './support/stats.js';

export interface OptionCase {
  name: string;
  folder: 'fresh' | 'existing' | 'memory';
  /**
   * Where a fresh folder's initdb runs: PGlite's own way (this process), or ours (a child with
   * INIT_CHILD_FLAGS), or a child with V8's default tiers.
   */
  initdb?: 'process' | 'child' | 'child, tiered';
  /** Server settings; absent: PGlite's defaults (initdb's shared_buffers = 128MB). */
  settings?: Record<string, string>;
  initialMemory?: number;
  /** V8 flags of the process that runs the case. */
  nodeFlags?: string[];
}

interface CaseRun {
  openMs: number;
  rssOpenMiB: number;
  migrateMs: number;
  workMs: number;
  work2Ms: number;
  rssAfterMiB: number;
  peakMiB: number;
  sharedBuffers: string;
}

export interface OptionResult extends OptionCase {
  /** Medians of the rounds; absent when PGlite refused the options. */
  run?: CaseRun;
  refused?: string;
}

const OURS = { ...PGLITE_SETTINGS };

export const CASES: OptionCase[] = [
  { name: 'new folder, initdb in process (PGlite default)', folder: 'fresh', initdb: 'process' },
  {
    name: 'new folder, initdb in a child, V8 default tiers',
    folder: 'fresh',
    initdb: 'child, tiered',
  },
  { name: 'new folder, initdb in a child, --liftoff-only', folder: 'fresh', initdb: 'child' },
  { name: 'new folder, child, ours', folder: 'fresh', initdb: 'child', settings: OURS },
  {
    name: 'new folder, child, ours, node --liftoff-only (npm start)',
    folder: 'fresh',
    initdb: 'child',
    settings: OURS,
    nodeFlags: ['--liftoff-only'],
  },
  { name: 'existing folder, PGlite defaults', folder: 'existing' },
  {
    name: 'existing, shared_buffers=32MB',
    folder: 'existing',
    settings: { shared_buffers: '32MB' },
  },
  { name: 'existing, shared_buffers=16MB (ours)', folder: 'existing', settings: OURS },
  { name: 'existing, shared_buffers=8MB', folder: 'existing', settings: { shared_buffers: '8MB' } },
  {
    name: 'existing, ours + work_mem=1MB',
    folder: 'existing',
    settings: { ...OURS, work_mem: '1MB' },
  },
  {
    name: 'existing, ours, node --liftoff-only (npm start)',
    folder: 'existing',
    settings: OURS,
    nodeFlags: ['--liftoff-only'],
  },
  {
    name: 'existing, ours + initialMemory 256 MiB',
    folder: 'existing',
    settings: OURS,
    initialMemory: 256 * 2 ** 20,
  },
  {
    name: 'existing, ours + initialMemory 64 MiB',
    folder: 'existing',
    settings: OURS,
    initialMemory: 64 * 2 ** 20,
  },
  { name: 'memory, PGlite defaults', folder: 'memory' },
  { name: 'memory, ours', folder: 'memory', settings: OURS },
];

function memory(): { rss: number; hwm: number } {
  const text = readFileSync('/proc/self/status', 'utf8');
  const mib = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)?.[1]) / 1024;
  return { rss: mib('VmRSS'), hwm: mib('VmHWM') };
}

/** 1,000 inserts, 1,000 reads by key (and as many trivial sandbox queries), 200 locked updates. */
async function workload(checkout: Database, sandbox: Database, firstId: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < 1000; i++) {
    await checkout.query('insert into bench_rows (data) values ($1::jsonb)', [
      JSON.stringify({ i, status: 'processing', note: 'x'.repeat(300) }),
    ]);
  }
  for (let i = firstId + 1; i <= firstId + 1000; i++) {
    await sandbox.query('select $1::int as i', [i]);
    await checkout.query('select data from bench_rows where id = $1', [i]);
  }
  for (let i = firstId + 1; i <= firstId + 200; i++) {
    await checkout.transaction(async (tx) => {
      await tx.query('select id from bench_rows where id = $1 for update', [i]);
      await tx.query(`update bench_rows set data = data || '{"status":"approved"}' where id = $1`, [
        i,
      ]);
    });
  }
  return performance.now() - started;
}

/** One case, in this (child) process. */
async function runCase(c: OptionCase, dataDir: string | undefined): Promise<CaseRun> {
  const started = performance.now();
  if (dataDir && c.initdb === 'child') await initialiseDataDir(dataDir);
  if (dataDir && c.initdb === 'child, tiered') await initialiseDataDir(dataDir, []);
  const pg = new PGlite({
    dataDir,
    ...(c.settings ? { startParams: pgliteStartParams(c.settings) } : {}),
    ...(c.initialMemory ? { initialMemory: c.initialMemory } : {}),
  });
  await pg.waitReady;
  const openMs = performance.now() - started;
  const rssOpenMiB = memory().rss;
  const shared = sharePGlite(pg);
  const checkout = await shared.database('checkout');
  const sandbox = await shared.database('sandbox');
  const migrateStarted = performance.now();
  await migrateCheckoutStore(checkout);
  await migrate(sandbox, SANDBOX_MIGRATION_SET, SANDBOX_MIGRATIONS);
  const migrateMs = performance.now() - migrateStarted;
  await checkout.query('create table bench_rows (id bigserial primary key, data jsonb not null)');
  const workMs = await workload(checkout, sandbox, 0);
  // The same again: V8 has compiled (or tiered up) what the first round ran.
  const work2Ms = await workload(checkout, sandbox, 1000);
  const { rows } = await checkout.query<{ shared_buffers: string }>('show shared_buffers');
  const after = memory();
  await shared.close();
  return {
    openMs,
    rssOpenMiB,
    migrateMs,
    workMs,
    work2Ms,
    rssAfterMiB: after.rss,
    peakMiB: after.hwm,
    sharedBuffers: rows[0]?.shared_buffers ?? '?',
  };
}

/** Runs `c` in a child process; `template` is an initialised folder copied for 'existing'. */
function spawnCase(c: OptionCase, template: string): CaseRun | { refused: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-options-'));
  const dataDir = c.folder === 'memory' ? undefined : join(dir, 'db');
  if (c.folder === 'existing') cpSync(template, dataDir as string, { recursive: true });
  try {
    const out = execFileSync(
      process.execPath,
      [
        ...(c.nodeFlags ?? []),
        '--import',
        'tsx',
        new URL(import.meta.url).pathname,
        '--case',
        JSON.stringify({ c, dataDir }),
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    return JSON.parse(out.trim().split('\n').at(-1) as string) as CaseRun;
  } catch (error) {
    // PGlite refuses some options outright, from inside its start-up (the process dies): an
    // initialMemory below its module's minimum is a LinkError.
    const stderr = String((error as { stderr?: unknown }).stderr ?? '');
    const line = stderr.split('\n').find((l) => /Error\b/.test(l)) ?? stderr.trim().slice(-200);
    return { refused: line.replace(/^\[|\]$/g, '') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runOptionsBench(rounds: number): Promise<OptionResult[]> {
  const templateRoot = mkdtempSync(join(tmpdir(), 'pglite-options-template-'));
  const template = join(templateRoot, 'db');
  try {
    await initialiseDataDir(template);
    const runs = new Map<string, CaseRun[]>(CASES.map((c) => [c.name, []]));
    const refused = new Map<string, string>();
    for (let round = 0; round < rounds; round++) {
      for (const c of CASES) {
        if (refused.has(c.name)) continue;
        const result = spawnCase(c, template);
        if ('refused' in result) refused.set(c.name, result.refused);
        else runs.get(c.name)?.push(result);
        console.log(`round ${round + 1}/${rounds}: ${c.name}`);
      }
    }
    return CASES.map((c) => {
      const list = runs.get(c.name) ?? [];
      const why = refused.get(c.name);
      if (why || list.length === 0) return { ...c, refused: why ?? 'no run' };
      const m = (key: keyof Omit<CaseRun, 'sharedBuffers'>) => median(list.map((r) => r[key]));
      return {
        ...c,
        run: {
          openMs: m('openMs'),
          rssOpenMiB: m('rssOpenMiB'),
          migrateMs: m('migrateMs'),
          workMs: m('workMs'),
          work2Ms: m('work2Ms'),
          rssAfterMiB: m('rssAfterMiB'),
          peakMiB: m('peakMiB'),
          sharedBuffers: list[0]?.sharedBuffers ?? '?',
        },
      };
    });
  } finally {
    rmSync(templateRoot, { recursive: true, force: true });
  }
}

export function optionsTable(results: OptionResult[]): string {
  return table(
    [
      'case',
      'shared_buffers',
      'open',
      'RSS open',
      'migrate',
      'workload',
      'again',
      'RSS after',
      'peak (VmHWM)',
    ],
    results.map((r) =>
      r.run
        ? [
            r.name,
            r.run.sharedBuffers,
            `${fmt(r.run.openMs)} ms`,
            `${fmt(r.run.rssOpenMiB)} MiB`,
            `${fmt(r.run.migrateMs)} ms`,
            `${fmt(r.run.workMs)} ms`,
            `${fmt(r.run.work2Ms)} ms`,
            `${fmt(r.run.rssAfterMiB)} MiB`,
            `${fmt(r.run.peakMiB)} MiB`,
          ]
        : [r.name, null, `refused: ${r.refused}`, null, null, null, null, null, null],
    ),
  );
}

const caseArg = option('--case');
if (caseArg) {
  const { c, dataDir } = JSON.parse(caseArg) as { c: OptionCase; dataDir?: string };
  console.log(JSON.stringify(await runCase(c, dataDir)));
} else if (isMain(import.meta.url)) {
  const results = await runOptionsBench(flag('--quick') ? 1 : 3);
  console.log(optionsTable(results));
  writeJson(results);
}
