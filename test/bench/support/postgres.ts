/**
 * PostgreSQL for the bench: only on loopback, only when it answers, each run in fresh schemas
 * dropped afterwards (other people use the same database at the same time).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/test';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export interface PostgresProbe {
  url: string | undefined;
  /** Why PostgreSQL is skipped, when it is. */
  skipped?: string;
}

export async function probePostgres(): Promise<PostgresProbe> {
  const url = process.env.TEST_DATABASE_URL || DEFAULT_URL;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return { url: undefined, skipped: 'TEST_DATABASE_URL is not a URL' };
  }
  if (!LOOPBACK.has(host)) {
    return { url: undefined, skipped: `the database host ${host} is not loopback` };
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return { url };
  } catch (error) {
    return { url: undefined, skipped: `no answer at ${redact(url)}: ${(error as Error).message}` };
  } finally {
    await client.end().catch(() => {});
  }
}

export async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    return rows[0]?.server_version ?? 'unknown';
  } finally {
    await client.end();
  }
}

export function uniqueSchema(role: string): string {
  return `bench_${role}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export async function dropSchemas(url: string, schemas: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

/** The URL without its password, for RESULTS.md. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}
