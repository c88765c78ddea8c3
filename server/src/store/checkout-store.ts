/**
 * The companion backend's store: the migrated database plus one typed repository per table.
 */

import { createCallbackRepository } from './callbacks.js';
import { createCardRefRepository } from './card-refs.js';
import { type DatabaseOptions, migrate, openDatabase } from './engine/database.js';
import type { Database } from './engine/types.js';
import { createHistoryRepository } from './history.js';
import { createIdempotencyRepository } from './idempotency.js';
import { createOperationRepository } from './operations.js';
import { createOrderRepository } from './orders.js';
import { createPaymentLinkRepository } from './payment-links.js';
import { CHECKOUT_MIGRATION_SET, checkoutMigrations } from './schema.js';
import { createSessionCardRepository } from './session-cards.js';
import { createSessionReadRepository } from './session-reads.js';
import { createSessionRepository } from './sessions.js';
import { type Executor, translatingErrors } from './sql.js';
import { createWebhookRepository } from './webhooks.js';

/** The repositories on `q`, which translates the engine's errors (`translatingErrors`). */
function createRepositories(q: Executor) {
  return {
    orders: createOrderRepository(q),
    sessions: createSessionRepository(q),
    sessionReads: createSessionReadRepository(q),
    history: createHistoryRepository(q),
    callbacks: createCallbackRepository(q),
    idempotency: createIdempotencyRepository(q),
    webhooks: createWebhookRepository(q),
    operations: createOperationRepository(q),
    cardRefs: createCardRefRepository(q),
    sessionCards: createSessionCardRepository(q),
    paymentLinks: createPaymentLinkRepository(q),
  };
}

export type CheckoutRepositories = ReturnType<typeof createRepositories>;

export interface CheckoutStore extends CheckoutRepositories {
  /**
   * The database under the store, for its owner: migrations, closing, tests. The backend reads
   * and writes through the repositories only (no SQL outside store/).
   */
  readonly db: Database;
  /**
   * Runs `fn` with repositories bound to one transaction: all of its writes commit together or
   * not at all. Use only `tx` inside (on PGlite the outer store would wait for the transaction).
   */
  transaction<T>(fn: (tx: CheckoutRepositories) => Promise<T>): Promise<T>;
  /** Resolves when the database answers a trivial statement (the readiness probe). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Wraps an already migrated database (tests, or a caller that manages the connection). */
export function createCheckoutStore(db: Database): CheckoutStore {
  const q = translatingErrors(db);
  const transaction = q.transaction as NonNullable<Executor['transaction']>;
  return {
    db,
    ...createRepositories(q),
    transaction: (fn) => transaction((tx) => fn(createRepositories(tx))),
    async ping() {
      await q.query('select 1');
    },
    close: () => db.close(),
  };
}

/**
 * Opens the database (PGlite in `dataDir` or memory without `url`; PostgreSQL with it, inside
 * `schema` when given), applies the `checkout` migrations, and returns the store.
 */
export async function openCheckoutStore(options: DatabaseOptions): Promise<CheckoutStore> {
  const db = await openDatabase(options);
  try {
    await migrateCheckoutStore(db);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return createCheckoutStore(db);
}

export function migrateCheckoutStore(db: Database): Promise<void> {
  return migrate(db, CHECKOUT_MIGRATION_SET, checkoutMigrations);
}
