/**
 * The parts a backend or sandbox profile is cut into for RESULTS.md (support/profile.ts charges each
 * sample to the innermost frame one of these claims). Node's crypto is deliberately not a part:
 * a hash or a key parse is charged to whoever asked for it (JWT, signing, the sandbox).
 */
import type { Part } from './profile.js';

const nm = (...packages: string[]) =>
  new RegExp(`/node_modules/(${packages.map((p) => p.replace('/', '\\/')).join('|')})/`);

export const SERVER_PARTS: readonly Part[] = [
  // WASM frames (PGlite's Postgres, undici's HTTP parser) go to the JS that called them.
  { name: 'PGlite (WASM Postgres and its JS driver)', match: /@electric-sql\/pglite/ },
  { name: 'node-postgres (pg)', match: nm('pg', 'pg-pool', 'pg-protocol', 'pg-types') },
  { name: 'JWT verification (jsonwebtoken)', match: nm('jsonwebtoken', 'jws', 'jwa') },
  { name: 'rate limiters (express-rate-limit)', match: nm('express-rate-limit') },
  { name: 'helmet', match: nm('helmet') },
  { name: 'CORS (cors)', match: nm('cors', 'vary') },
  { name: 'body parsing', match: nm('body-parser', 'raw-body', 'iconv-lite', 'type-is') },
  { name: 'logging (pino)', match: nm('pino', 'pino-std-serializers', 'sonic-boom') },
  { name: 'validation (zod)', match: nm('zod') },
  {
    name: 'Express and its router',
    match: nm('express', 'router', 'finalhandler', 'on-finished', 'path-to-regexp', 'send'),
  },
  { name: 'ours: store (SQL, row mapping)', match: /\/server\/src\/store\// },
  { name: 'ours: gateway client and signing', match: /\/server\/src\/(gateway|signing)\// },
  { name: 'ours: sandbox', match: /\/server\/src\/sandbox\// },
  { name: 'ours: checkout (routes, payments, logger)', match: /\/server\/src\// },
  { name: 'HTTP client (fetch, undici)', match: /^node:internal\/deps\/undici/ },
  {
    name: 'Node HTTP server, sockets and streams',
    match: /^node:(_http_\w+|http|net|internal\/(stream_base_commons|streams\/\w+|http))\b/,
  },
  { name: 'garbage collector', match: /#\(garbage collector\)$/ },
  { name: 'the profiler itself', match: /^node:inspector|\/test\/bench\/stack\/profile-route/ },
];
