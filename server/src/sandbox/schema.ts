/**
 * The sandbox's tables (migration set `sandbox`, every table prefixed `sandbox_`), in the same
 * database module the backend uses, so a restarted sandbox remembers its transactions.
 * Append migrations; never edit one that has shipped.
 */
import type { Migration } from '../store/engine/database.js';

export const SANDBOX_MIGRATION_SET = 'sandbox';

export const SANDBOX_MIGRATIONS: Migration[] = [
  {
    id: '001-sandbox-core',
    sql: `
create sequence sandbox_order_seq start with 7000001;
create table sandbox_transactions (
  orderid text primary key,
  endpoint_id text not null,
  client_orderid text not null,
  phase text not null,
  three_ds_server_trans_id text unique,
  acs_trans_id text unique,
  form_token text unique,
  data jsonb not null,
  created_at timestamptz not null default now(),
  unique (endpoint_id, client_orderid)
);
create table sandbox_card_refs (
  id text primary key,
  endpoint_id text not null,
  source_orderid text not null,
  data jsonb not null
);
create table sandbox_recurring_payments (
  id text primary key,
  endpoint_id text not null,
  data jsonb not null
);
create table sandbox_jobs (
  id bigserial primary key,
  kind text not null,
  payload jsonb not null,
  due_at bigint not null,
  done boolean not null default false
);
create index sandbox_jobs_pending on sandbox_jobs (due_at) where not done;
create table sandbox_callbacks (
  id bigserial primary key,
  orderid text not null,
  url text not null,
  query jsonb not null,
  attempts integer not null default 0,
  delivered boolean not null default false,
  created_at bigint not null
);
create table sandbox_callback_attempts (
  id bigserial primary key,
  callback_id bigint not null references sandbox_callbacks (id),
  attempt integer not null,
  at bigint not null,
  http_status integer,
  error text
);
create table sandbox_nonces (
  login text not null,
  nonce text not null,
  seen_at bigint not null,
  primary key (login, nonce)
);`,
  },
  {
    // Expired nonces are pruned by seen_at.
    id: '002-sandbox-nonces-seen-at',
    sql: 'create index sandbox_nonces_seen_at on sandbox_nonces (seen_at);',
  },
];
