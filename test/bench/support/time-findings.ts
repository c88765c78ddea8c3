/**
 * What earlier profiles of the backend bench found, and what was changed because of it: the
 * fixed part of RESULTS.md's "Where the time went" (where-time-went.ts adds this run's figures).
 * Each round names the commit it measured and how, so its figures can be reproduced.
 */

export const FIRST_ROUND = `Before the speed work, the same bench on commit 91cf370 (2026-11-22, load average about 5)
profiled a session read on PGlite at 2,126 µs of backend CPU against 183 µs for the bare handler
(ratio 0.082× in that run): 43 % PGlite, for two queries per read, each parsed and planned afresh
(PGlite's \`query()\` sends every call as an unnamed statement, in six round trips into the WASM
Postgres); 25 % jsonwebtoken, which, given the secret as a string, first tried to parse it as a
PEM key on every call; 11 % Node's HTTP; 7 % Express; 4 % the two express-rate-limit instances (a
SHA-256 of the key per request for their draft-8 headers). A pay cycle cost the backend
26,942 µs, 54 % of it PGlite, 11 % the fetch client, 10 % Node's HTTP, and the sandbox 16,117 µs,
57 % PGlite (p50 188 ms with 8 shoppers in that run). Changed because of it:

- PGlite runs each parameterised SQL text as a named prepared statement, parsed and planned once,
  then one Bind/Execute/Sync round trip per call (server/src/store/engine/pglite-prepared.ts);
- a widget request reads its session and the session's order in one query
  (server/src/store/session-reads.ts);
- the session token is verified with a KeyObject made once, and a token that verified is
  remembered (server/src/checkout/widget-api/jwt.ts);
- the request limits are a fixed window per key in a Map (server/src/checkout/throttle.ts);
- one status poll per order is shared by concurrent askers (a callback landing while a long poll
  asks no longer sends a second status request and a second, losing, write).`;

export const SECOND_ROUND = `The second round started from commit e9c9fa8 (2026-11-24), read ratio 0.37× and pay p50 156 ms
in its RESULTS.md. Each finding below was measured on that commit and on the change, run after run
on the same machine (load average 0.5-5), as CPU time of the server process per request (from
/proc, so threads count) beside this bench's profiles; \`node --cpu-prof\`-style profiles were
summed by function and file, minified frames mapped through the packages' source maps.

- A session read cost the backend 544-662 µs of CPU against 150-190 µs for the bare handler. Of
  a PGlite query, the WASM Postgres was the smaller part: around it PGlite's \`execProtocol\` took
  its two locks (three promise chains per query, although our own lock already serialised
  everything), a file-system sync that is a no-op on Node's file system (behind a third lock), a
  Describe per call, a Bind built through two growable writers and copied twice, the answer's
  bytes copied once more, and each row rebuilt with \`Object.fromEntries\`. The session read's
  query alone went from 145 to 62 µs of CPU (a loop of reads, hot caches) once
  pglite-prepared.ts took no PGlite lock outside a transaction, reused the row description the
  statement got when prepared, skipped the no-op sync, and pglite-wire.ts wrote the Bind at its
  exact size and built the rows itself; \`row_to_json\` instead of \`to_jsonb\` took about a
  third off the query's WASM time (no jsonb value built and sorted per row).
- In a serving process the same query costs about twice the loop's figure (timed in place,
  after these changes: 105 µs of CPU in the WASM Postgres and the protocol parser, 13 µs to build
  its rows): between two queries the request's HTTP and Express work evicts the 9 MB WASM
  Postgres's code and data from the CPU caches, and the query's misses slow what follows it too
  (the same app without a database spends about 230 µs per read on the rest, in a process with
  PGlite about 300). Fewer, smaller round trips into the WASM are what helps there.
- Request logging cost about 25 µs of CPU per read (the same run at level \`warn\`): pino's JSON,
  the formatter that scrubs every record for card numbers, and one asynchronous write per line
  through libuv's thread pool. Kept: the request log is a product feature, and batching lines
  would delay them.
- Express: the checkout app is mounted in a root app, as main.ts and a merchant's app mount it,
  so each request runs a second \`app.handle\` (two \`Object.setPrototypeOf\` per request) and a
  second router. The widget API was the fifth layer of that app; it is now the first, the health
  routes the last, and a read no longer passes through the JSON body parser.
- A pay cycle cost the backend 10-15 ms and the sandbox 7-12 ms of CPU. Global \`fetch\`
  (undici) cost about 650 µs (profiled) per gateway call in the backend (two per cycle) and as
  much for the sandbox's callback: WHATWG Request, Response and Headers objects and body streams
  for one form POST. The gateway client and the sandbox's callbacks now use node:http(s) with
  keep-alive agents (server/src/gateway/http-post.ts, server/src/sandbox/http/callback-get.ts).
  Each gateway exchange's history row was read back after its insert, its request and response
  JSON parsed again for nothing: 50-90 µs per insert; the backend now records without reading
  back.
- PGlite's writes are the cycle's largest cost on both sides (an update of an order is 200-300 µs
  of CPU, most of it in the WASM, and one WAL write; the backend makes about nine writes per
  cycle, the sandbox about ten) and stay: each is a state change the design keeps (claim, sale,
  status, callback, history).

Measured after these changes in the same back-to-back runs: a session read 462-481 µs of CPU
(ratio to bare 0.33-0.37× in those runs, from 0.28-0.30×), a pay cycle 7.4-8.7 ms in the backend
and 5.9-8.5 ms in the sandbox (p50 63-80 ms with 8 shoppers, from 79-128 ms).`;

export const THIRD_ROUND = `The third round started from commit 00df927 (2026-11-25), read ratio 0.42× in its RESULTS.md,
where PGlite was 196 µs of a read's 607 µs of backend CPU: the one query of the request's session
and order. A widget re-reads that pair while nothing happens (the session view, every long poll),
so on embedded PGlite the answer is now remembered until the database changes
(server/src/store/remembered-query.ts). PGlite's data belongs to this one process: every statement
and transaction any of its stores starts is counted, and a read answers from memory only while
the count stands as it was when the read last ran, so it answers what a query would. On
PostgreSQL, where other instances write, every read still queries. The backend bench alone on
the change (same machine, same day): read 0.60× of the bare handler (3,701 against 6,192 per
second), 302 µs of CPU per read against 153 µs for bare, PGlite 0.2 % of it.`;
