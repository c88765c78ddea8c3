import { StoreError } from '../errors.js';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** A schema name is spliced into SQL and a connection option, so it must be a plain identifier. */
export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new StoreError('store-config', 'Database schema must match [a-z_][a-z0-9_]*');
  }
}
