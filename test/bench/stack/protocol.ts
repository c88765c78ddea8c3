/**
 * What the bench's server processes are told (the BENCH_STACK environment variable, JSON) and
 * what they answer on their first stdout line. Servers run in their own processes so that the
 * load generator does not share their event loop and each one's memory is its own.
 */

export interface StackDatabase {
  /** postgres:// URL on loopback; absent: PGlite in `dataDir`. */
  url?: string;
  /** A fresh schema per server (PostgreSQL), dropped by the orchestrator afterwards. */
  schema?: string;
  /** A temporary folder: PGlite data, and the sandbox's dev merchant keys. */
  dataDir: string;
}

export interface SandboxReady {
  ready: 'sandbox';
  url: string;
  gatewayUrl: string;
  endpointId: string;
  login: string;
  controlKey: string;
  privateKeyFile: string;
}

export interface BackendReady {
  ready: 'backend';
  url: string;
}

export interface SandboxInput {
  db: StackDatabase;
  /** The emulated gateway's processing delay; 0 leaves only our stack and the emulator. */
  processingDelayMs: number;
}

export interface BackendInput {
  db: StackDatabase;
  sandbox: SandboxReady;
  merchantApiKey: string;
  jwtSecret: string;
  allowedOrigin: string;
}

export function readInput<T>(): T {
  const text = process.env.BENCH_STACK;
  if (!text) throw new Error('BENCH_STACK is not set: this file is started by test/bench');
  return JSON.parse(text) as T;
}

/** The one line the parent waits for. */
export function announce(ready: SandboxReady | BackendReady): void {
  process.stdout.write(`${JSON.stringify(ready)}\n`);
}
