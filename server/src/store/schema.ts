/**
 * The companion backend's SQL schema: migration set `checkout` (the sandbox keeps its own set and
 * `sandbox_` tables). Append new migrations at the end; never edit one that has shipped.
 *
 * Conventions: our ids are text (random UUIDs) so that a malformed id in a URL is simply "not
 * found", never a SQL error; money is bigint minor units; timestamps are timestamptz; jsonb for
 * what the gateway or the merchant shapes; `version` counts updates for optimistic concurrency.
 */
import type { Migration } from './engine/database.js';

export const CHECKOUT_MIGRATION_SET = 'checkout';

const orders = `
create table orders (
  id text primary key,
  seq bigserial not null unique,
  client_orderid text not null unique,
  gateway_orderid text unique,
  session_id text,
  intent text not null check (intent in ('sale', 'preauth')),
  amount_minor bigint not null check (amount_minor >= 0),
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  status text not null default 'new'
    check (status in ('new', 'processing', 'unknown', 'approved', 'declined', 'error', 'filtered')),
  captured_minor bigint not null default 0,
  returned_minor bigint not null default 0,
  voided_at timestamptz,
  next_action jsonb,
  three_ds_server_trans_id text,
  three_ds_method_url text,
  three_ds_comp_ind text check (three_ds_comp_ind in ('Y', 'N', 'U')),
  card_brand text,
  card_last4 text check (card_last4 ~ '^[0-9]{4}$'),
  card_masked text,
  reason text,
  error_code text,
  return_ref text not null unique,
  merchant_origin text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  -- Money can never be captured beyond the hold, nor returned beyond what was taken.
  check (captured_minor >= 0 and captured_minor <= amount_minor),
  check (returned_minor >= 0 and returned_minor <= amount_minor)
);
create index orders_status_updated on orders (status, updated_at);
create index orders_created on orders (created_at, seq);
`;

const gatewayHistory = `
create table gateway_history (
  id bigserial primary key,
  order_id text references orders (id),
  operation_id text,
  operation text not null,
  request jsonb not null,
  response jsonb,
  http_status integer,
  duration_ms integer,
  request_id text,
  error text,
  created_at timestamptz not null default now()
);
create index gateway_history_order on gateway_history (order_id, id);
create index gateway_history_operation on gateway_history (operation_id, id);
-- Append-only: an audit trail that can be rewritten is no audit trail.
create function gateway_history_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'gateway_history is append-only';
end $$;
create trigger gateway_history_append_only before update or delete on gateway_history
  for each row execute function gateway_history_append_only();
`;

const sessions = `
create table checkout_sessions (
  id text primary key,
  client_orderid text not null unique,
  amount_minor bigint not null check (amount_minor >= 0),
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  intent text not null check (intent in ('sale', 'preauth')),
  description text not null default '',
  customer jsonb not null default '{}',
  return_url text,
  metadata jsonb not null default '{}',
  state text not null default 'open'
    check (state in ('open', 'paying', 'completed', 'cancelled', 'expired')),
  order_id text unique references orders (id),
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1
);
create index checkout_sessions_state_expires on checkout_sessions (state, expires_at);
`;

const callbacks = `
create table gateway_callbacks (
  id bigserial primary key,
  gateway_orderid text not null,
  client_orderid text,
  status text not null,
  type text not null default '',
  query jsonb not null,
  received_at timestamptz not null default now(),
  processed_at timestamptz,
  -- The gateway retries until answered 200 and may send duplicates: one row per event.
  unique (gateway_orderid, status, type)
);
`;

const idempotency = `
create table idempotency_keys (
  scope text not null,
  key text not null,
  request_hash text not null,
  state text not null check (state in ('in-progress', 'completed')),
  response_status integer,
  response_body jsonb,
  locked_until timestamptz,
  created_at timestamptz not null default now(),
  completed_at timestamptz,
  primary key (scope, key)
);
`;

const webhooks = `
create table merchant_webhooks (
  id text primary key,
  event text not null,
  payload jsonb not null,
  order_id text,
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  delivered_at timestamptz,
  failed_at timestamptz,
  last_error text,
  created_at timestamptz not null default now()
);
create index merchant_webhooks_due on merchant_webhooks (next_attempt_at)
  where delivered_at is null and failed_at is null;
`;

const operations = `
create table merchant_operations (
  id text primary key,
  seq bigserial not null unique,
  kind text not null check (kind ~ '^[a-z][a-z0-9-]*$'),
  client_id text not null,
  gateway_orderid text,
  gateway_ref text,
  amount_minor bigint,
  currency text check (currency ~ '^[A-Z]{3}$'),
  status text not null default 'new',
  data jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (kind, client_id)
);
create index merchant_operations_gateway_orderid on merchant_operations (gateway_orderid);
create index merchant_operations_kind_seq on merchant_operations (kind, seq);
`;

// A callback's control signs status, orderid and client_orderid only: repeats are told apart on
// exactly those (an unsigned `type` must not make a repeat new). Rows from before keep a null key.
const callbacksSignedKey = `
alter table gateway_callbacks drop constraint gateway_callbacks_gateway_orderid_status_type_key;
alter table gateway_callbacks add column signed_key text;
create unique index gateway_callbacks_signed_key on gateway_callbacks (signed_key);
`;

// The ways the merchant lets the shopper pay this session: the card form on the page (`direct`),
// the gateway's payment page (`hosted`), or both. Sessions made before it allowed both.
const sessionModes = `
alter table checkout_sessions
  add column modes text[] not null default array['direct', 'hosted']
  check (cardinality(modes) >= 1 and modes <@ array['direct', 'hosted']);
`;

// A checkout session's order exists from the session's first moment (`awaiting-payment`), and an
// unpaid session that ends leaves it `expired`.
const ordersFromSessions = `
alter table orders drop constraint orders_status_check;
alter table orders add constraint orders_status_check check (status in ('awaiting-payment',
  'expired', 'new', 'processing', 'unknown', 'approved', 'declined', 'error', 'filtered'));
`;

// Payment attempts: a session's order may be paid in several attempts, each a gateway transaction
// of its own (the second's client_orderid is `<order id>-2`, ...; `merchant_orderid` names the
// order they belong to). At most one approved attempt is kept; one approved after it is reversed
// (`reversal_reason`, then `reversed_at` once the void or return was approved). `abandoned_at`: the
// shopper left its bank page, and the session took another attempt while it is still followed.
const paymentAttempts = `
alter table checkout_sessions add column max_attempts integer not null default 5
  check (max_attempts between 1 and 10);
alter table orders add column attempt integer not null default 1 check (attempt between 1 and 10);
alter table orders add column merchant_orderid text;
alter table orders add column abandoned_at timestamptz;
alter table orders add column reversal_reason text;
alter table orders add column reversed_at timestamptz;
create unique index orders_session_attempt on orders (session_id, attempt);
create index orders_to_reverse on orders (updated_at)
  where reversal_reason is not null and reversed_at is null;
`;

// Events are listed for the merchant (GET /v1/events) newest first by a cursor: insertion order.
const webhookSeq = `
alter table merchant_webhooks add column seq bigserial;
create unique index merchant_webhooks_seq on merchant_webhooks (seq);
`;

// Saved cards. `card_refs`: the card references this backend made (a shopper's consent, or the
// merchant's POST /v1/orders/{id}/card-ref), one per approved order at most, with what may be
// shown of the card (brand, last four); its expiry and holder are read from the gateway when
// needed, never kept. `forgotten_at`: the merchant forgot it; it is offered no more. A session may
// offer some of them (`checkout_session_cards`), each under a random handle that the browser sees
// instead of the reference. An attempt keeps the shopper's consent to save its card (`save_card`)
// and, paid with a saved card, the reference it charged (`saved_card_ref`). References made before
// this migration through the merchant API are taken in.
const savedCards = `
create table card_refs (
  id text primary key,
  seq bigserial not null unique,
  order_id text not null unique references orders (id),
  brand text not null,
  last4 text check (last4 ~ '^[0-9]{4}$'),
  created_at timestamptz not null default now(),
  forgotten_at timestamptz
);
create table checkout_session_cards (
  session_id text not null references checkout_sessions (id),
  card_ref_id text not null references card_refs (id),
  handle text not null unique,
  primary key (session_id, card_ref_id)
);
create index checkout_session_cards_ref on checkout_session_cards (card_ref_id);
alter table checkout_sessions
  add column save_card text not null default 'never' check (save_card in ('ask', 'always', 'never')),
  add column saved_card_cvc text not null default 'required'
    check (saved_card_cvc in ('required', 'optional'));
alter table orders
  add column save_card boolean not null default false,
  add column saved_card_ref text references card_refs (id);
create index orders_cards_to_save on orders (updated_at) where save_card and status = 'approved';
insert into card_refs (id, order_id, brand, last4, created_at)
  select distinct on (o.id) op.gateway_ref, o.id, coalesce(o.card_brand, 'UNKNOWN'), o.card_last4,
         op.created_at
    from merchant_operations op join orders o on o.id = op.data->>'orderRowId'
   where op.kind = 'card-ref' and op.gateway_ref is not null
   order by o.id, op.seq
  on conflict do nothing;
`;

// Whether a session offers saved cards, on its own row: the widget reads its session often, and
// most sessions offer none, so the join that lists them runs only for those that do (on PGlite it
// took a session read from about 4,300 to 1,600 a second).
const sessionOffersCards = `
alter table checkout_sessions add column offers_saved_cards boolean not null default false;
update checkout_sessions s set offers_saved_cards = true
 where exists (select 1 from checkout_session_cards c where c.session_id = s.id);
`;

// The card reference a rebill, recurring payment or transfer charges, on its own column (`data`
// is sanitised, and a numeric reference may look like a card number there). A forget refuses while
// such a charge is reserved and not yet answered (`new`), so that one reserved before the forget
// is never sent after it: the partial index keeps that look-up to the few rows still `new`. Rows
// made before this migration have none.
const operationCardRef = `
alter table merchant_operations add column card_ref_id text;
create index merchant_operations_charging on merchant_operations (card_ref_id) where status = 'new';
`;

// One namespace for every gateway client_orderid this backend creates (store/client-order-ids.ts):
// a session's orderId (its first attempt's id), each further attempt's `<orderId>-N`, and the
// merchant operations that send a client_orderid of their own. The primary key is the check, so
// two instances racing for one id cannot both pass it. Taken in from the rows before it, oldest
// first: where two already shared an id (the collision this closes), the older keeps it, the
// other goes on as it was (its follow-ons claim nothing) and nothing new may take it.
const clientOrderIds = `
create table client_order_ids (
  client_orderid text primary key,
  owner_kind text not null check (owner_kind ~ '^[a-z][a-z0-9-]*$'),
  owner_id text not null,
  created_at timestamptz not null default now()
);
insert into client_order_ids (client_orderid, owner_kind, owner_id, created_at)
select client_orderid, owner_kind, owner_id, created_at from (
  select client_orderid, 'session'::text as owner_kind, id as owner_id, created_at, 0 as rank,
         0::bigint as seq
    from checkout_sessions
  union all
  select client_orderid, 'attempt', id, created_at, 1, seq from orders
  union all
  select client_id, kind, id, created_at, 2, seq from merchant_operations
   where kind in ('rebill', 'payout', 'transfer', 'account-verification', 'hosted-form')
) claimed
order by created_at, rank, seq
on conflict (client_orderid) do nothing;
`;

/** When the merchant last asked for an event again: its retry window counts from then. */
const webhookRedeliveredAt = `
alter table merchant_webhooks add column redelivered_at timestamptz;
`;

/**
 * Events are kept with no webhook endpoint too (`GET /v1/events` is a feed): such an event is
 * `not_configured`, never due for delivery (the due index leaves it out) and never in the backlog.
 * `created_at` is indexed for the retention purge.
 */
const eventsKept = `
alter table merchant_webhooks add column not_configured boolean not null default false;
drop index merchant_webhooks_due;
create index merchant_webhooks_due on merchant_webhooks (next_attempt_at)
  where delivered_at is null and failed_at is null and not not_configured;
create index merchant_webhooks_created on merchant_webhooks (created_at);
`;

/**
 * A checkout that needs only an amount (issue 35). A session says per group of shopper data what
 * the element asks (`collect`: `{ email, phone, billingAddress }`, each auto / always / never; an
 * absent group is auto, so sessions before this migration ask for what their customer lacks, which
 * was nothing) and the country its address part starts on (`country_hint`). An attempt keeps the
 * customer it carried to the gateway (`customer`: the merchant's merged with what the shopper
 * typed): the merchant API and the webhooks show it, and a card saved from it knows it. Rows
 * before this migration have none (null: the session's customer was what they sent).
 */
const collectShopper = `
alter table checkout_sessions
  add column collect jsonb not null default '{}'::jsonb,
  add column country_hint text check (country_hint ~ '^[A-Z]{2}$');
alter table orders add column customer jsonb;
`;

/**
 * How many times the shopper gave the session more time (POST /widget/extend): each is counted,
 * so a session has a bounded number of them however its expiry moved.
 */
const sessionExtensions = `
alter table checkout_sessions add column extensions integer not null default 0;
`;

/**
 * The merchant's order id an event is about, for `GET /v1/events?orderId=`: an order's events name
 * it in `data.order.orderId`, a merchant operation's (`capture.approved`, `payout.declined`, ...)
 * in `data.orderId` (the order a capture, void or return moved, or the operation's own id). Events
 * made before it are given theirs: from the payload, else from their operation's row.
 */
const eventMerchantOrderId = `
alter table merchant_webhooks add column merchant_order_id text;
update merchant_webhooks set merchant_order_id = payload #>> '{data,order,orderId}'
 where payload #>> '{data,order,orderId}' is not null;
update merchant_webhooks w
   set merchant_order_id = coalesce(o.merchant_orderid, o.client_orderid)
  from merchant_operations op
  join orders o on o.id = op.data ->> 'orderRowId'
 where w.merchant_order_id is null and op.id = w.payload #>> '{data,operationId}';
update merchant_webhooks w
   set merchant_order_id = coalesce(op.data ->> 'orderId', op.client_id)
  from merchant_operations op
 where w.merchant_order_id is null and op.id = w.payload #>> '{data,operationId}'
   and not op.data ? 'orderRowId';
create index merchant_webhooks_merchant_order on merchant_webhooks (merchant_order_id, seq);
`;

/**
 * Payment links (migration 024): a checkout of ours at /pay/{id} for a sale with no shop page.
 * `id` is 128 random bits (unguessable: the page answers a wrong one with a plain 404). Each visit
 * of the page is a checkout session of its own (`payment_link_visits`, `<prefix>-<n>` as its
 * orderId; `token` is the visit's random key in the page's URL, so a reload finds its session).
 * A visit's approval counts for the link only once the link, locked, still takes a payment
 * (`paid_order_id`); one beyond that is reversed as a late attempt is. `customer`, `collect` and
 * `country_hint` are passed as they are to each visit's session (migration 019's fields).
 */
const paymentLinks = `
create table payment_links (
  id text primary key,
  seq bigserial not null unique,
  amount_minor bigint not null check (amount_minor > 0),
  currency text not null,
  intent text not null check (intent in ('sale', 'preauth')),
  description text not null,
  order_id_prefix text not null,
  customer jsonb not null default '{}',
  collect jsonb,
  country_hint text check (country_hint ~ '^[A-Z]{2}$'),
  locale text,
  return_url text,
  metadata jsonb not null default '{}',
  reusable boolean not null default false,
  max_payments integer check (max_payments >= 1),
  state text not null default 'active'
    check (state in ('active', 'paid', 'expired', 'deactivated')),
  payments integer not null default 0,
  visits integer not null default 0,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 0
);
create index payment_links_due on payment_links (expires_at) where state = 'active';
create table payment_link_visits (
  token text primary key,
  link_id text not null references payment_links (id),
  n integer not null,
  session_id text not null unique references checkout_sessions (id),
  paid_order_id text references orders (id),
  created_at timestamptz not null default now(),
  unique (link_id, n)
);
create index payment_link_visits_paid on payment_link_visits (link_id, created_at)
  where paid_order_id is not null;
`;

export const checkoutMigrations: Migration[] = [
  { id: '001-orders', sql: orders },
  { id: '002-gateway-history', sql: gatewayHistory },
  { id: '003-checkout-sessions', sql: sessions },
  { id: '004-gateway-callbacks', sql: callbacks },
  { id: '005-idempotency-keys', sql: idempotency },
  { id: '006-merchant-webhooks', sql: webhooks },
  { id: '007-merchant-operations', sql: operations },
  { id: '008-callbacks-signed-key', sql: callbacksSignedKey },
  { id: '009-checkout-session-modes', sql: sessionModes },
  { id: '010-orders-from-sessions', sql: ordersFromSessions },
  { id: '011-payment-attempts', sql: paymentAttempts },
  { id: '012-webhook-seq', sql: webhookSeq },
  { id: '013-saved-cards', sql: savedCards },
  { id: '014-session-offers-cards', sql: sessionOffersCards },
  { id: '015-operation-card-ref', sql: operationCardRef },
  { id: '016-client-order-ids', sql: clientOrderIds },
  { id: '017-webhook-redelivered-at', sql: webhookRedeliveredAt },
  { id: '018-events-kept', sql: eventsKept },
  { id: '019-collect-shopper', sql: collectShopper },
  { id: '020-session-extensions', sql: sessionExtensions },
  { id: '021-event-merchant-order-id', sql: eventMerchantOrderId },
  { id: '024-payment-links', sql: paymentLinks },
];
