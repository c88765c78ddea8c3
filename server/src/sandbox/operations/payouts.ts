/**
 * Payouts: v2 payout (HMAC-SHA1), v4 payout (RSA, returns `payout-id`), and the two-step
 * payout-check (registers, moves nothing) + payout-pay (executes it exactly once).
 * Destinations, one per request, each kind's fields validated:
 *   card           credit_card_number (v2) or destination-card-no (v4), Luhn-valid;
 *                  card_printed_name optional
 *   bank account   account_number (5-34 letters/digits) + bank_name, bank_bic optional
 *   ewallet        ewallet_type + ewallet_id
 *   fast payments  phone (E.164, +country code) with bank_name optional (the receiving bank)
 */
import { invalidField, refused } from '../http/errors.js';
import { amountMinor, type Fields, RULES, textRule, twoDigitMonth } from '../http/fields.js';
import type { Call, OperationDef } from '../http/operation.js';
import type { CardInfo, Transaction } from '../model.js';
import { payoutScenario } from '../scenarios.js';
import {
  asyncResponse,
  cardInfo,
  createTransaction,
  readClientOrderId,
  readCurrency,
} from './common.js';

interface Destination {
  kind: 'card' | 'bank' | 'ewallet' | 'phone';
  scenario: string;
  card?: CardInfo;
  extra: Record<string, string>;
}

const ACCOUNT = {
  test: (v: string) => /^[A-Za-z0-9]{5,34}$/.test(v),
  what: '5 to 34 letters or digits',
};
const BIC = {
  test: (v: string) => /^[A-Z0-9]{8}([A-Z0-9]{3})?$/.test(v),
  what: 'an 8 or 11 character BIC',
};
const E164 = {
  test: (v: string) => /^\+[1-9]\d{7,14}$/.test(v),
  what: 'an E.164 phone number (+ and 8 to 15 digits)',
};

/** `panField`: v2 names the destination card `credit_card_number`, v4 `destination-card-no`. */
export function readDestination(fields: Fields, panField: string): Destination {
  const pan = fields.optional(panField, RULES.pan);
  if (pan) {
    const holder = fields.optional('card_printed_name', RULES.name) ?? '';
    const month = fields.optional('expire_month', RULES.month);
    const card = cardInfo(
      pan,
      holder,
      month ? twoDigitMonth(month) : '',
      fields.optional('expire_year', RULES.year) ?? '',
    );
    return {
      kind: 'card',
      scenario: payoutScenario(pan),
      card,
      extra: { destination: 'card' },
    };
  }
  if (fields.has('account_number')) {
    const account = fields.required('account_number', ACCOUNT);
    fields.required('bank_name', textRule(128, '1 to 128 characters'));
    fields.optional('bank_bic', BIC);
    return {
      kind: 'bank',
      scenario: 'approved',
      extra: { destination: 'bank', account: `****${account.slice(-4)}` },
    };
  }
  if (fields.has('ewallet_type') || fields.has('ewallet_id')) {
    fields.required('ewallet_type', textRule(32, '1 to 32 characters'));
    fields.required('ewallet_id', textRule(128, '1 to 128 characters'));
    return { kind: 'ewallet', scenario: 'approved', extra: { destination: 'ewallet' } };
  }
  if (fields.has('phone')) {
    fields.required('phone', E164);
    fields.optional('bank_name', textRule(128, '1 to 128 characters'));
    return { kind: 'phone', scenario: 'approved', extra: { destination: 'phone' } };
  }
  throw invalidField(
    'destination',
    'is missing: send a card (credit_card_number), a bank account (account_number + bank_name), an ewallet (ewallet_type + ewallet_id) or a phone number (phone)',
  );
}

async function createPayout(
  call: Call,
  version: 'v2' | 'v4',
  register: boolean,
): Promise<Transaction> {
  const { fields } = call;
  const clientOrderId = readClientOrderId(call);
  const currency = readCurrency(fields);
  const minor = amountMinor(fields, currency);
  const destination = readDestination(
    fields,
    version === 'v2' ? 'credit_card_number' : 'destination-card-no',
  );
  fields.optional('order_desc', RULES.description);
  const callbackUrl = fields.optional('server_callback_url', RULES.url);
  const { tx } = await createTransaction(call.sandbox, call.endpointId, {
    kind: 'payout',
    transactionType: register ? 'payout-check' : 'payout',
    clientOrderId,
    amountMinor: minor,
    currency,
    scenario: destination.scenario,
    ...(destination.card ? { card: destination.card } : {}),
    ...(callbackUrl ? { callbackUrl } : {}),
    extra: destination.extra,
    // Registration is synchronous: the check itself succeeded and no money moved, so the
    // payout is stored registered and approved in one go.
    ...(register
      ? {
          phase: 'registered' as const,
          status: 'approved' as const,
          operations: [
            {
              type: 'payout-check',
              amountMinor: 0,
              status: 'approved' as const,
              at: call.sandbox.clock.now(),
            },
          ],
        }
      : {}),
  });
  return tx;
}

const payoutV2: OperationDef = {
  path: 'api/v2/payout',
  auth: 'HMAC-SHA1',
  group: true,
  async handle(call) {
    const tx = await createPayout(call, 'v2', false);
    return asyncResponse(tx, { 'payout-id': tx.orderid });
  },
};

const payoutV4: OperationDef = {
  path: 'api/v4/payout',
  auth: 'RSA-SHA256',
  async handle(call) {
    const tx = await createPayout(call, 'v4', false);
    return asyncResponse(tx, { 'payout-id': tx.orderid });
  },
};

const payoutCheck: OperationDef = {
  path: 'api/v4/payout-check',
  auth: 'RSA-SHA256',
  async handle(call) {
    const tx = await createPayout(call, 'v4', true);
    return asyncResponse(tx, { 'payout-id': tx.orderid });
  },
};

const payoutPay: OperationDef = {
  path: 'api/v4/payout-pay',
  auth: 'RSA-SHA256',
  async handle(call) {
    const { fields, sandbox } = call;
    const clientOrderId = readClientOrderId(call);
    const orderid = fields.optional('orderid', RULES.orderid);
    const currency = fields.has('currency') ? readCurrency(fields) : undefined;
    const minor = currency && fields.has('amount') ? amountMinor(fields, currency) : undefined;
    const tx = await sandbox.store.withTx(async (ctx) => {
      const tx = orderid
        ? await sandbox.store.getTx(ctx.q, orderid, true)
        : await sandbox.store.getTxByClientOrderId(ctx.q, call.endpointId, clientOrderId, true);
      if (
        !tx ||
        tx.endpointId !== call.endpointId ||
        tx.kind !== 'payout' ||
        tx.clientOrderId !== clientOrderId
      ) {
        throw refused(
          'unknown-payout',
          `client-order-id: no registered payout ${clientOrderId}`,
          'client-order-id',
        );
      }
      if (tx.phase !== 'registered') {
        throw refused(
          'already-executed',
          `payout ${tx.orderid} was already executed (or was not registered by payout-check)`,
        );
      }
      if (currency && currency !== tx.currency) {
        throw refused(
          'currency-mismatch',
          `currency ${currency} does not match the payout's ${tx.currency}`,
          'currency',
        );
      }
      if (minor !== undefined && minor !== tx.amountMinor) {
        throw invalidField('amount', 'does not match the amount registered by payout-check');
      }
      tx.phase = 'paying';
      tx.status = 'processing';
      tx.transactionType = 'payout';
      await sandbox.processor.save(ctx, tx);
      await sandbox.processor.schedule(ctx, tx);
      return tx;
    });
    return asyncResponse(tx, { 'payout-id': tx.orderid });
  },
};

export const payoutOperations: OperationDef[] = [payoutV2, payoutV4, payoutCheck, payoutPay];
