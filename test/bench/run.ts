/**
 * `npm run bench`: widget size, signing, backend, `npm start` start-up and memory, each in its own
 * process (one's JIT state and memory cannot leak into another's figures), then
 * test/bench/RESULTS.md. `--load` also runs the 60 s load test (load.ts) on PGlite and, when a
 * server answers, on PostgreSQL; each appends its own section; then measures PGlite's start-up
 * and memory options (pglite-options.ts) and times the whole of `npm test` (test-suite.ts).
 * `--quick` shortens every run (a smoke run; its figures are marked as such).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BackendResult, backendTable, memoryTable } from './backend.bench.js';
import { type BrowserResult, browserSection } from './browser.bench.js';
import type { LoadResult } from './load.js';
import { type OptionResult, optionsTable } from './pglite-options.js';
import { type SigningResult, signingTable } from './signing.bench.js';
import { BACKEND_NODE_FLAGS } from './stack/deployment.js';
import { type StartResult, startTable } from './start-memory.js';
import { flag } from './support/cli.js';
import {
  footprintTargets,
  READY_EXISTING_TARGET_S,
  READY_NEW_TARGET_S,
  START_RSS_TARGET_MB,
} from './support/footprint-targets.js';
import { machineSection } from './support/machine-section.js';
import { table } from './support/markdown.js';
import { probePostgres } from './support/postgres.js';
import { dropLoadSections, RESULTS_FILE, writeResults } from './support/results-file.js';
import { speedTargets } from './support/speed-targets.js';
import { targetsTable } from './support/targets.js';
import { whereTheTimeWent } from './support/where-time-went.js';
import {
  BUSY_PROCESSES,
  busySuiteTarget,
  type SuiteResult,
  suiteSection,
  suiteTarget,
} from './test-suite.js';

const here = (file: string) => new URL(file, import.meta.url).pathname;
const quick = flag('--quick');
const tmp = mkdtempSync(join(tmpdir(), 'pay-checkout-bench-run-'));

/** Runs one bench file in a child process; its --json file is the result. */
function step<T>(title: string, args: string[]): { result: T; seconds: number } {
  console.log(`\n== ${title}`);
  const out = join(tmp, `${title.replace(/\W+/g, '-')}.json`);
  const started = performance.now();
  execFileSync(process.execPath, [...args, ...(quick ? ['--quick'] : []), '--json', out], {
    stdio: 'inherit',
  });
  return {
    result: JSON.parse(readFileSync(out, 'utf8')) as T,
    seconds: (performance.now() - started) / 1000,
  };
}

interface WidgetSizes {
  min: number;
  gzip: number;
  brotli: number;
}
interface WidgetResult {
  built: boolean;
  budgetGzip: number;
  withinBudget: boolean;
  targetGzip: number;
  beforeGzip: number;
  startGzip: number;
  withinTarget: boolean;
  cdn: WidgetSizes;
  contributors: {
    matchesFile: boolean;
    rows: { source: string; bytes: number; gzipCost: number }[];
  };
  esm: WidgetSizes & { files: number; unminifiedBytes: number };
  peers: { name: string; gzip: number }[];
  languages: (WidgetSizes & { code: string })[];
  languageBudgetGzip: number;
  languagesWithinBudget: boolean;
}

const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const header = machineSection(command);
try {
  const widget = step<WidgetResult>('widget size', [here('./widget-size.mjs')]);
  const signing = step<SigningResult>('signing', ['--import', 'tsx', here('./signing.bench.ts')]);
  const backend = step<BackendResult>('backend', ['--import', 'tsx', here('./backend.bench.ts')]);
  const browser = step<BrowserResult>('browser', ['--import', 'tsx', here('./browser.bench.ts')]);
  const startup = step<StartResult>('npm start', ['--import', 'tsx', here('./start-memory.ts')]);
  // The load runs append their sections (on PGlite, and on PostgreSQL when one answers); the
  // sections of earlier runs go first, so the file holds this run's only.
  let postgresLoad: LoadResult | undefined;
  let pgliteOptions: { result: OptionResult[]; seconds: number } | undefined;
  let suite: { result: SuiteResult; seconds: number } | undefined;
  let busySuite: { result: SuiteResult; seconds: number } | undefined;
  if (flag('--load')) {
    dropLoadSections();
    step<LoadResult>('load on pglite', ['--import', 'tsx', here('./load.ts')]);
    if ((await probePostgres()).url) {
      postgresLoad = step<LoadResult>('load on postgres', [
        '--import',
        'tsx',
        here('./load.ts'),
        '--postgres',
      ]).result;
    }
    pgliteOptions = step<OptionResult[]>('pglite options', [
      '--import',
      'tsx',
      here('./pglite-options.ts'),
    ]);
    // Last: the suite's own servers and browsers would skew any figure measured beside them.
    suite = step<SuiteResult>('npm test', ['--import', 'tsx', here('./test-suite.ts')]);
    // Then beside a CPU load: green is the target there, the wall time is recorded.
    busySuite = step<SuiteResult>(`npm test beside ${BUSY_PROCESSES} busy processes`, [
      '--import',
      'tsx',
      here('./test-suite.ts'),
      '--busy',
      String(BUSY_PROCESSES),
    ]);
  }
  writeResults(
    report(
      header,
      widget.result,
      signing.result,
      backend.result,
      browser.result,
      startup.result,
      postgresLoad,
      pgliteOptions?.result,
      suite?.result,
      busySuite?.result,
      {
        widget: widget.seconds,
        signing: signing.seconds,
        backend: backend.seconds,
        browser: browser.seconds,
        'npm start': startup.seconds,
        ...(pgliteOptions ? { 'pglite options': pgliteOptions.seconds } : {}),
        ...(suite ? { 'npm test': suite.seconds } : {}),
        ...(busySuite ? { 'npm test beside load': busySuite.seconds } : {}),
      },
    ),
  );
  console.log(`\nwrote ${RESULTS_FILE}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

function report(
  head: string,
  widget: WidgetResult,
  signing: SigningResult,
  backend: BackendResult,
  browser: BrowserResult,
  startup: StartResult,
  postgresLoad: LoadResult | undefined,
  pgliteOptions: OptionResult[] | undefined,
  suite: SuiteResult | undefined,
  busySuite: SuiteResult | undefined,
  seconds: Record<string, number>,
): string {
  const b = (n: number) => `${n.toLocaleString('en-US')} B`;
  const o = backend.options;
  const s = signing.options;
  return `# Benchmarks

Written by \`npm run bench\` (test/bench/run.ts); every figure below comes from that run.${quick ? '\n\n**Quick smoke run (`--quick`): shortened budgets, figures are rough.**' : ''}

${head}

The machine is shared (2 cores, other engineers run tests on it at the same time): absolute
figures are noisy. Each comparison is measured in the same run, interleaved where it can be, so
the ratios are the figures to trust. Wall time: ${Object.entries(seconds)
    .map(([name, s]) => `${name} ${s.toFixed(0)} s`)
    .join(', ')} (total ${Object.values(seconds)
    .reduce((a, b) => a + b, 0)
    .toFixed(0)} s${flag('--load') ? ' without the load tests' : ''}).

## Targets

The figures with a target, from this run, beside the figure each replaced.

${targetsTable([
  ...speedTargets(backend, browser),
  ...footprintTargets(widget.cdn.gzip, widget.languages[0], startup, postgresLoad),
  suiteTarget(suite),
  busySuiteTarget(busySuite),
])}

## 1. Widget size

min = bytes on disk after minification; gzip at level 9; brotli at quality 11. The ESM row is
\`dist/esm/widget/src/pay-checkout.js\` and the ${widget.esm.files} files of ours it imports, bundled and
minified the way the CDN file is, with **lit-html excluded** (a shared dependency an app already has;
${b(widget.esm.unminifiedBytes)} as tsc emits them, unminified). Peers: gzip -9 figures measured
with the same tool on this machine kind (toolchain notes); only gzip is known for them.${widget.built ? ' The widget was built first (`npm run build`): dist was missing.' : ''}

${table(
  ['bundle', 'min', 'gzip -9', 'brotli'],
  [
    [
      'pay-checkout CDN file, lit-html included',
      b(widget.cdn.min),
      b(widget.cdn.gzip),
      b(widget.cdn.brotli),
    ],
    [
      `pay-checkout ESM entry + own imports, lit-html excluded`,
      b(widget.esm.min),
      b(widget.esm.gzip),
      b(widget.esm.brotli),
    ],
    ...widget.peers.map((p) => [p.name, null, b(p.gzip), null]),
  ],
)}

Budget: at most ${b(widget.budgetGzip)} gzip with Lit: **${widget.withinBudget ? 'within' : 'OVER'}**
(${((widget.cdn.gzip / widget.budgetGzip) * 100).toFixed(0)} % of it).

Target ("Light and fast"): at most ${b(widget.targetGzip)} gzip with Lit:
**${b(widget.cdn.gzip)}, ${widget.withinTarget ? 'within' : 'OVER'}**. It replaces ${b(widget.beforeGzip)}, the
figure of the previous RESULTS.md; when the size work began the file built to ${b(widget.startGzip)} (later
features had grown the widget since that run).

Every language but English is a file of its own beside the CDN file (\`dist/cdn/locales/<code>.json\`, data checked against a hash in that file),
fetched when a shopper needs it; budget ${b(widget.languageBudgetGzip)} gzip each:
**${widget.languagesWithinBudget ? 'all within' : 'OVER'}**.

${table(
  ['language file', 'min', 'gzip -9', 'brotli'],
  widget.languages.map((l) => [`locales/${l.code}.json`, b(l.min), b(l.gzip), b(l.brotli)]),
)}

The ten largest contributors to the CDN file, by source file (read from the source map of the
same build${widget.contributors.matchesFile ? '' : '; **dist/cdn was older than the sources: rebuild**'}).
"gzip cost" is how much smaller the gzip -9 file is without that file's bytes: what it really
costs on the wire, since text that repeats elsewhere compresses away.

${table(
  ['source', 'min', 'share of min', 'gzip cost'],
  widget.contributors.rows.map((r) => [
    r.source,
    b(r.bytes),
    `${((r.bytes / widget.cdn.min) * 100).toFixed(1)} %`,
    b(r.gzipCost),
  ]),
)}

## 2. Signing

Operations per second, one operation = one whole signed request: \`computeControl('sale', …)\`
for the control (SHA-1), \`createOAuthSigner().sign()\` of a 10-field body (fresh nonce and
timestamp, base string, signature, Authorization header) for OAuth. \`oauth-1.0a\` does the same
(\`authorize\` + \`toHeader\`) with the same node:crypto primitive and an already parsed key;
both were checked to produce the same signature first. The floor is bare node:crypto doing only
the hash / HMAC / RSA signature over an equal base string. Our signer draws its nonce from
crypto.randomBytes, oauth-1.0a from Math.random; the diagnostic row shows that difference. Warm-up ${s.warmupMs} ms per case,
then ${s.rounds} rounds of ${s.budgetMs} ms per case, cases interleaved; median of the rounds.
The 4096-bit key was generated at start (${signing.rsa4096KeygenMs.toFixed(0)} ms); the 2048-bit
one is test/server/signing/fixtures/test-rsa-2048.pkcs8.pem.

${signingTable(signing)}

## 3. Backend

Loopback HTTP only. The sandbox and the backend each run in their own process (the backend
composed as main.ts does it: a root Express app, then createCheckoutApp), the load generator in
a third. autocannon, ${o.connections} connections, ${o.durationS} s per case after a 1 s warm-up
per case; the pay cycle is a closed loop of ${o.payConcurrency} concurrent shoppers for
${o.durationS} s, each cycle = \`POST /widget/pay\` with the sandbox's approved test card (from
\`GET /sandbox/test-cards\`), then \`GET /widget/next?wait=5\` until \`final\`, on sessions made
before the timed run. "per second" counts only 2xx answers (or approved cycles); "failures" are
errors + timeouts + non-2xx. The bare handler (\`GET /bare\` → \`{ok:true}\`) is on the
backend's root app in the same process and run.

Set-up choices (public options only): sandbox \`processingDelayMs: ${o.processingDelayMs}\` (the
emulated gateway's own delay removed, so the cycle is our stack plus the emulator); request logs
at \`info\` to /dev/null (the logging work is kept); widget rate limits raised through
\`widgetLimits\` (one load generator on one IP is not a crowd). The backend's process runs with
\`${BACKEND_NODE_FLAGS.join(' ')}\`, as docs/backend-memory.md tells a deployment to run it. Like the bench, the widget
long-polls \`/widget/next\` at once after the \`wait\` that \`/widget/pay\` answers (it sleeps the
\`retryAfterMs\` only after a long poll that ended with no news).

${backendTable(backend)}

Memory after the load (process.memoryUsage(), read over HTTP from each server process; the
PGlite figures include the WASM Postgres heap of each in-process database). "start ms" is spawn
to both servers ready, including database start and migrations.

${memoryTable(backend)}

### Where the time went

${whereTheTimeWent(backend)}
${backend.skipped.length ? `\nSkipped: ${backend.skipped.join('; ')}.\n` : ''}
${backend.engines
  .filter((e) => e.payCycle.sessionsMadeInline > 0 || e.payCycle.firstErrors.length > 0)
  .map(
    (e) =>
      `- ${e.engine}: ${e.payCycle.sessionsMadeInline} pay cycles made their own session (pool ran dry)${e.payCycle.firstErrors.length ? `; first errors: ${e.payCycle.firstErrors.join(' / ')}` : ''}`,
  )
  .join('\n')}

## 4. Click → pay-success in Chromium

${browserSection(browser)}

## 5. \`npm start\`: start-up and memory

test/bench/start-memory.ts. The backend, its embedded sandbox (one shared PGlite) and the demo in
one process, as \`npm start\` runs them (package.json's command, without npm), on a new temporary
DATA_DIR, then restarted on the same folder; interleaved with it, the same command without
\`--liftoff-only\` (V8's default WebAssembly tiers), on a folder of its own. "/readyz 200 after" is from the spawn to the first 200 (polled every 25 ms). Traffic
between the two readings: the demo page and widget file, ${startup.payments} checkout sessions
made through the merchant API and paid through the widget API by ${startup.concurrency} concurrent
shoppers with the sandbox's approved, declined, insufficient-funds and unknown-then-approved
cards, and five order list reads. RSS is the process's VmRSS (/proc); the first start
initialises its database in a child process, so "peak with children" is the sampled (100 ms)
peak of the process and its children together. Targets: at most ${START_RSS_TARGET_MB} MB after
${startup.payments} payments, /readyz within ${READY_EXISTING_TARGET_S} s on an existing folder and
${READY_NEW_TARGET_S} s on a new one, on a quiet machine (the load average at each start is in the
table: above 2, on 2 cores, the start waited for the CPU).

${startTable(startup)}

## 6. \`npm test\`

${suiteSection(suite, busySuite)}

## 7. PGlite's start-up and memory options

${
  pgliteOptions
    ? `test/bench/pglite-options.ts: each case in a fresh process (WASM memory and V8 state never carry
over), interleaved round by round, median of ${quick ? 1 : 3} rounds. A case opens PGlite (for a new folder,
initdb included), migrates the backend's and the sandbox's schemas into it (the shared database
of \`npm start\`), then runs a workload twice: 1,000 jsonb inserts, 1,000 key reads plus 1,000
trivial queries of the other schema, 200 transactions that lock and update a row. RSS is the
case's process (VmRSS), "peak" its VmHWM. What the product took from these figures, and why, is
in [docs/pglite-options.md](../../docs/pglite-options.md).

${optionsTable(pgliteOptions)}`
    : 'Not measured in this run: `npm run bench -- --load` measures them.'
}
`;
}
