/**
 * RESULTS.md's "Where the time went": this run's CPU profiles (backend.bench.ts), what the same
 * profiles showed before issue 14's work, and what was changed because of them.
 */
import { type BackendResult, type EngineResult, profileTable } from '../backend.bench.js';
import { fmt } from './markdown.js';

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
250 µs). Each busy sample is charged to the innermost frame a part claims (test/bench/lib/
profile.ts and server-parts.ts): a middleware pays for its own work, not for the handlers its
\`next()\` runs; Node's crypto is charged to whoever called it. µs are of busy CPU as the
profiler saw it (a little high: its own overhead has a row).

${backend.engines.map((e) => `${e.engine}:\n\n${profileTable(e)}`).join('\n\n')}

Before issue 14's work, the same bench on commit 91cf370 (2026-11-22, load average about 5)
profiled a session read on PGlite at 2,126 µs of backend CPU against 183 µs for the bare handler
(ratio 0.082× in that run): 43 % PGlite, for two queries per read, each parsed and planned afresh
(PGlite's \`query()\` sends every call as an unnamed statement, in six round trips into the WASM
Postgres); 25 % jsonwebtoken, which, given the secret as a string, first tried to parse it as a
PEM key on every call; 11 % Node's HTTP; 7 % Express; 4 % the two express-rate-limit instances (a
SHA-256 of the key per request for their draft-8 headers). A pay cycle cost the backend
26,942 µs, 54 % of it PGlite, 11 % the fetch client, 10 % Node's HTTP, and the sandbox 16,117 µs,
57 % PGlite (p50 188 ms with 8 shoppers in that run). Changed because of it:

- PGlite runs each parameterised SQL text as a named prepared statement, parsed and planned once,
  then one Bind/Execute/Sync round trip per call (server/src/store/pglite-prepared.ts);
- a widget request reads its session and the session's order in one query
  (server/src/store/session-reads.ts);
- the session token is verified with a KeyObject made once, and a token that verified is
  remembered (server/src/checkout/widget-api/jwt.ts);
- the request limits are a fixed window per key in a Map (server/src/checkout/throttle.ts);
- one status poll per order is shared by concurrent askers (a callback landing while a long poll
  asks no longer sends a second status request and a second, losing, write).

${
  now
    ? `Now a session read costs ${fmt(now.readUs)} µs against ${fmt(now.bareUs)} µs for the bare handler
(${fmt(now.readUs / now.bareUs)}×), ${pct(now.readDb)} of it in the one PGlite query; the rest is
Node's HTTP and Express for a real route (its headers, the mounted app's middleware), which the
bare handler pays in part. A pay cycle costs the backend ${fmt(now.payUs)} µs (${pct(now.payDb)} PGlite)
and the sandbox ${fmt(now.paySandboxUs)} µs. What is left of the read ratio's gap is the database
read itself: with the session held in memory (an experiment, not kept) the read measured
0.48-0.58× of bare. A cache kept coherent by counting every write to the embedded database would
get about there, but it would serve only repeated reads of one session, the bench's pattern: a
shopper reads their session once.`
    : ''
}`;
}
