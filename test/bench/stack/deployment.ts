/**
 * How the bench runs the backend's process: with the flag `npm run server` gives Node
 * (package.json; docs/backend-memory.md). `--max-semi-space-size=8` (MiB) caps V8's young
 * generation at 16 MiB; Node 20 lets it grow to 32 MiB on a 64-bit machine, and under steady
 * traffic it does, all of it resident. Measured in the bench's own runs: the same CPU per session
 * read and per pay cycle, and about 15 MiB less resident after the PostgreSQL load test.
 */
export const BACKEND_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
