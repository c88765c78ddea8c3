/**
 * Shared by the operations: reading a card, finding the merchant's order, creating a transaction
 * under the duplicate-client_orderid policy, and the async-response body.
 *
 * Duplicate policy: a `client_orderid` names one transaction per endpoint. The same request
 * again (same operation, amount and currency) is answered with the existing order and charges
 * nothing (a safe retry after a lost response); anything else reusing it is a 400
 * `validation-error` naming client_orderid.
 */

import { brandOf } from '../../card-number.js';
import { isKnownCurrency } from '../../signing/index.js';
import type { Queryable } from '../../store/engine/types.js';
import type { Sandbox } from '../context.js';
import { invalidField, refused } from '../http/errors.js';
import { type Fields, fourDigitYear, RULES, twoDigitMonth } from '../http/fields.js';
import type { Call } from '../http/operation.js';
import { type PayBody, serialNumber } from '../http/respond.js';
import type { CardInfo, Operation, Phase, Transaction, TxKind, TxStatus } from '../model.js';
import { scenarioFor } from '../scenarios.js';

/** The merchant's order id, in the one spelling the operation's contract takes. */
export function readClientOrderId(call: Call): string {
  const name = call.contract.orderId;
  if (!name) throw new Error('this operation has no merchant order id in its contract');
  return call.fields.required(name, RULES.id);
}

export interface CardInput {
  pan: string;
  cvv?: string;
  info: CardInfo;
}

export function readCurrency(fields: Fields, name = 'currency'): string {
  const currency = fields.required(name, RULES.currency);
  if (!isKnownCurrency(currency)) throw invalidField(name, 'is not an ISO 4217 currency code');
  return currency;
}

/** Card fields of a sale-like request; `cvv2` optional only where the caller says so. */
export function readCard(fields: Fields, opts: { cvvRequired: boolean; pan?: string }): CardInput {
  const pan = fields.required(opts.pan ?? 'credit_card_number', RULES.pan);
  const holder = fields.required('card_printed_name', RULES.name);
  const expMonth = twoDigitMonth(fields.required('expire_month', RULES.month));
  const expYear = fourDigitYear(fields.required('expire_year', RULES.year));
  const cvv = opts.cvvRequired
    ? fields.required('cvv2', RULES.cvv)
    : fields.optional('cvv2', RULES.cvv);
  return {
    pan,
    ...(cvv ? { cvv } : {}),
    info: cardInfo(pan, holder, expMonth, expYear),
  };
}

export function cardInfo(pan: string, holder: string, expMonth: string, expYear: string): CardInfo {
  return {
    bin: pan.slice(0, 6),
    lastFour: pan.slice(-4),
    brand: brandOf(pan),
    holder,
    expMonth,
    expYear,
  };
}

/** The card's scenario; an expired card declines whatever its number (code 54). */
export function cardScenario(card: CardInput, now: number): string {
  const date = new Date(now);
  const current = date.getUTCFullYear() * 100 + date.getUTCMonth() + 1;
  const expiry = Number(card.info.expYear) * 100 + Number(card.info.expMonth);
  if (expiry < current) return 'cvv-declined-expired';
  return scenarioFor(card.pan, card.cvv).name;
}

export interface NewTransaction {
  kind: TxKind;
  transactionType: string;
  clientOrderId: string;
  amountMinor: number;
  currency: string;
  scenario: string;
  phase?: Phase;
  /** Default `processing`; a synchronous operation (payout-check) is stored already settled. */
  status?: TxStatus;
  operations?: Operation[];
  card?: CardInfo;
  email?: string;
  payer?: Record<string, string>;
  redirectUrl?: string;
  callbackUrl?: string;
  orderDesc?: string;
  formToken?: string;
  extra?: Record<string, string>;
}

/**
 * Creates the transaction (or returns the existing one for a repeated identical request) and
 * schedules its first step when it starts `authorizing`.
 */
export async function createTransaction(
  sandbox: Sandbox,
  endpointId: string,
  input: NewTransaction,
): Promise<{ tx: Transaction; repeated: boolean }> {
  const fingerprint = `${input.transactionType}|${input.amountMinor}|${input.currency}`;
  return sandbox.store.withTx(async (ctx) => {
    const existing = await sandbox.store.getTxByClientOrderId(
      ctx.q,
      endpointId,
      input.clientOrderId,
    );
    if (existing) {
      if (existing.fingerprint === fingerprint) return { tx: existing, repeated: true };
      throw refused(
        'duplicate-client-orderid',
        `client_orderid ${input.clientOrderId} is already used by order ${existing.orderid}`,
        'client_orderid',
      );
    }
    const now = sandbox.clock.now();
    const { phase = 'authorizing', status = 'processing', operations = [], ...rest } = input;
    const tx: Transaction = {
      ...rest,
      orderid: await sandbox.store.nextOrderId(ctx.q),
      endpointId,
      status,
      phase,
      hold: 'none',
      settledMinor: 0,
      returnedMinor: 0,
      operations,
      fingerprint,
      createdAt: now,
      updatedAt: now,
    };
    await sandbox.store.insertTx(ctx.q, tx);
    if (phase === 'authorizing') await sandbox.processor.schedule(ctx, tx);
    return { tx, repeated: false };
  });
}

/** The merchant's own order by `orderid`, checked against the `client_orderid` sent with it. */
export async function findOrder(
  call: Call,
  q: Queryable,
  orderid: string,
  clientOrderId: string | undefined,
  forUpdate: boolean,
): Promise<Transaction> {
  const tx = await call.sandbox.store.getTx(q, orderid, forUpdate);
  if (!tx || tx.endpointId !== call.endpointId) {
    throw refused(
      'unknown-order',
      `orderid: order ${orderid} is not known on this endpoint`,
      'orderid',
    );
  }
  if (clientOrderId !== undefined && clientOrderId !== tx.clientOrderId) {
    throw invalidField('client_orderid', `does not match order ${orderid}`);
  }
  return tx;
}

export function asyncResponse(tx: Transaction, extra: PayBody = {}): PayBody {
  return {
    type: 'async-response',
    status: tx.status,
    'paynet-order-id': tx.orderid,
    'merchant-order-id': tx.clientOrderId,
    'serial-number': serialNumber(),
    'end-point-id': tx.endpointId,
    ...extra,
  };
}
