/**
 * startStack(engine): the sandbox and the backend, each in its own process, each on its own
 * database (PGlite folders in a temp dir, or fresh PostgreSQL schemas); stop() removes both.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, startChild } from '../support/child.js';
import { dropSchemas, uniqueSchema } from '../support/postgres.js';
import { BACKEND_NODE_FLAGS } from './deployment.js';
import type { BackendInput, BackendReady, SandboxInput, SandboxReady } from './protocol.js';

export type Engine = { name: 'pglite' } | { name: 'postgres'; url: string };

export const ALLOWED_ORIGIN = 'https://shop.example';

export interface Stack {
  engine: Engine['name'];
  backendUrl: string;
  sandboxUrl: string;
  merchantApiKey: string;
  /** Milliseconds from spawn to both servers ready (includes PGlite's first start). */
  startMs: number;
  memory(): Promise<{ backend: NodeJS.MemoryUsage; sandbox: NodeJS.MemoryUsage }>;
  stop(): Promise<void>;
}

const here = (file: string) => new URL(file, import.meta.url).pathname;

export async function startStack(engine: Engine, processingDelayMs = 0): Promise<Stack> {
  const started = performance.now();
  const dataDir = await mkdtemp(join(tmpdir(), 'pay-checkout-bench-'));
  const schemas = engine.name === 'postgres' ? [uniqueSchema('sb'), uniqueSchema('co')] : [];
  const url = engine.name === 'postgres' ? engine.url : undefined;
  const children: Child<unknown>[] = [];
  const cleanUp = async () => {
    for (const child of children.reverse()) await child.stop();
    if (url && schemas.length) await dropSchemas(url, schemas);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const sandbox = await startChild<SandboxReady>(here('./sandbox-server.ts'), {
      db: { url, schema: schemas[0], dataDir },
      processingDelayMs,
    } satisfies SandboxInput);
    children.push(sandbox);
    const merchantApiKey = `bench_${randomBytes(18).toString('base64url')}`;
    const backend = await startChild<BackendReady>(
      here('./backend-server.ts'),
      {
        db: { url, schema: schemas[1], dataDir },
        sandbox: sandbox.ready,
        merchantApiKey,
        jwtSecret: randomBytes(36).toString('base64url'),
        allowedOrigin: ALLOWED_ORIGIN,
      } satisfies BackendInput,
      { nodeFlags: BACKEND_NODE_FLAGS },
    );
    children.push(backend);
    const get = async (base: string) =>
      (await (await fetch(`${base}/__bench/memory`)).json()) as NodeJS.MemoryUsage;
    return {
      engine: engine.name,
      backendUrl: backend.ready.url,
      sandboxUrl: sandbox.ready.url,
      merchantApiKey,
      startMs: performance.now() - started,
      memory: async () => ({
        backend: await get(backend.ready.url),
        sandbox: await get(sandbox.ready.url),
      }),
      stop: cleanUp,
    };
  } catch (error) {
    await cleanUp().catch(() => {});
    throw error;
  }
}
