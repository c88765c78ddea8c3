/**
 * One in-memory PGlite per test process for the sandboxes and backends its tests start, each in a
 * schema of its own, as `npm start` puts the backend and its embedded sandbox on one PGlite
 * (server/src/store/engine/shared-pglite.ts). Starting PGlite is the dear part of a test stack (1.1 to
 * 1.5 s of CPU even from the template of pglite-template.ts); a file that starts a sandbox and a
 * backend, or a second stack for one test, starts it once.
 *
 * Each schema is new and empty, so no test sees another's rows. A schema's `close()` does
 * nothing; the PGlite closes after the file's last test (an open PGlite keeps a process alive).
 */
import { after } from 'node:test';
import type { SandboxOptions } from '../../server/src/sandbox/index.js';
import {
  type CheckoutStore,
  createCheckoutStore,
  type Database,
  migrateCheckoutStore,
  openSharedPGlite,
  type SharedPGlite,
} from '../../server/src/store/index.js';

let shared: Promise<SharedPGlite> | undefined;
let schemas = 0;

// Registered as this module loads, with the test file's imports: a hook of the file's root.
after(async () => {
  await (await shared)?.close();
});

/** A new, empty schema on this process's in-memory PGlite; `purpose` starts its name. */
export async function memorySchema(purpose: string): Promise<Database> {
  shared ??= openSharedPGlite(undefined);
  schemas += 1;
  return (await shared).database(`${purpose}_${schemas}`);
}

/** A migrated checkout store in a new schema of this process's in-memory PGlite. */
export async function memoryCheckoutStore(): Promise<CheckoutStore> {
  const db = await memorySchema('checkout');
  await migrateCheckoutStore(db);
  return createCheckoutStore(db);
}

/**
 * A test's sandbox options, with a new schema of this process's PGlite as the sandbox's database
 * unless the options name a database of their own (a database, a URL or a data folder).
 */
export async function withSandboxSchema(options: SandboxOptions): Promise<SandboxOptions> {
  if (options.database ?? options.databaseUrl ?? options.dataDir) return options;
  return { ...options, database: await memorySchema('sandbox') };
}
