/**
 * RESULTS.md's "Where the time went": this run's CPU profiles (backend.bench.ts), what earlier
 * profiles showed and what was changed because of them (time-findings.ts), and what this run's
 * figures leave of the read ratio's gap.
 */
import { type BackendResult, type EngineResult, profileTable } from '../backend.bench.js';
import { fmt } from './markdown.js';
import { FIRST_ROUND, SECOND_ROUND, THIRD_ROUND } from './time-findings.js';

/** µs of busy CPU per request or cycle, and a part's share, from one engine's profiles. */
function perRequest(e: EngineResult) {
  const { bare, read, pay } = e.profile;
  const us = (ms: number, n: number) => (n > 0 ? (ms * 1000) / n : Number.NaN);
  const share = (name: RegExp, parts: { name: string; share: number }[]) =>
    parts.filter((p) => name.test(p.name)).reduce((sum, p) => sum + p.share, 0);
  return {
    bareUs: us(bare.backend.busyMs, bare.requests),
    readUs: us(read.backend.busyMs, read.requests),
    readDb: share(/PGlite|node-postgres/, read.backend.parts),
    payUs: us(pay.backend.busyMs, pay.cycles),
    payDb: share(/PGlite|node-postgres/, pay.backend.parts),
    paySandboxUs: us(pay.sandbox.busyMs, pay.cycles),
  };
}

const pct = (share: number) => `${Math.round(share * 100)} %`;

export function whereTheTimeWent(backend: BackendResult): string {
  const seconds = backend.engines[0]?.profile.durationS ?? 0;
  const pglite = backend.engines.find((e) => e.engine === 'pglite');
  const now = pglite ? perRequest(pglite) : undefined;
  return `After the timed runs, each engine's read and pay runs go once more for ${seconds} s with the
V8 CPU profiler of each server process on (node:inspector, as \`node --cpu-prof\` samples; every
250 µs). Each busy sample is charged to the innermost frame a part claims (test/bench/support/
profile.ts and server-parts.ts): a middleware pays for its own work, not for the handlers its
\`next()\` runs; Node's crypto is charged to whoever called it. µs are of busy CPU as the
profiler saw it (a little high: its own overhead has a row).

${backend.engines.map((e) => `${e.engine}:\n\n${profileTable(e)}`).join('\n\n')}

${FIRST_ROUND}

${SECOND_ROUND}

${THIRD_ROUND}

${
  now
    ? `In this run a session read cost ${fmt(now.readUs)} µs of backend CPU against ${fmt(now.bareUs)} µs for the bare
handler (${fmt(now.readUs / now.bareUs)}×), ${pct(now.readDb)} of it in PGlite; a pay cycle cost the backend
${fmt(now.payUs)} µs (${pct(now.payDb)} PGlite) and the sandbox ${fmt(now.paySandboxUs)} µs.

The read ratio's target (0.5×) asks a read to cost about twice the bare handler. What a read
does beyond it, without its query, was measured on its own: the same app on a store that answers
from memory (an experiment, not kept) cost 1.6-1.8× the bare handler's CPU (about 230 µs against
130-145: the mounted app's second \`app.handle\` and router, helmet's and CORS's headers, the
token check, the request log), which left the database about 40-60 µs of the budget; the PGlite
query, timed in a serving process, costs about 120 µs, and its cache misses make the rest of the
read dearer (about 300 µs instead of 230). No cache was added to close the gap: it would serve
only repeated reads of one session, the bench's pattern, while a shopper reads their session
once (the PostgreSQL rows above show the same read on the engine several instances share).`
    : ''
}`;
}
