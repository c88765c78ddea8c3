/**
 * Card references: create-card-ref (v2 control, v4 RSA) from an approved transaction with a card,
 * get-card-info, and make-rebill (a charge with no shopper present, or, with `cvv2`, one the
 * shopper makes in person: scenarios.ts, rebillScenario). A card reference belongs to
 * its endpoint: an unknown one, or another merchant's, is a 400 naming cardrefid.
 *
 * create-card-ref answers at once with `card-ref-id` (php-lib `create-card-ref-response`), and the
 * status of the source order carries it from then on: the spec calls the answer
 * `CardRefAsyncResponse`, so a client must also be able to read it from status.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../store/engine/types.js';
import { refused } from '../http/errors.js';
import { amountMinor, RULES } from '../http/fields.js';
import type { Call, OperationDef } from '../http/operation.js';
import { type PayBody, serialNumber } from '../http/respond.js';
import { type CardInfo, SHOPPER_PRESENT } from '../model.js';
import { rebillScenario } from '../scenarios.js';
import type { CardRef } from '../store.js';
import {
  asyncResponse,
  createTransaction,
  findOrder,
  readClientOrderId,
  readCurrency,
} from './common.js';
import { readPaymentExtras } from './payments.js';

const TOKENIZABLE = new Set(['sale', 'preauth', 'account-verification', 'rebill']);

export async function ownCardRef(call: Call, q: Queryable, id: string): Promise<CardRef> {
  const ref = await call.sandbox.store.getCardRef(q, id);
  if (!ref || ref.endpointId !== call.endpointId) {
    throw refused(
      'unknown-card-ref',
      `cardrefid: ${id} is not a card reference of this endpoint`,
      'cardrefid',
    );
  }
  return ref;
}

function createCardRef(version: 'v2' | 'v4'): OperationDef {
  return {
    path: `api/${version}/create-card-ref`,
    auth: version === 'v2' ? 'control' : 'RSA-SHA256',
    group: version === 'v2',
    async handle(call) {
      const { fields, sandbox } = call;
      const clientOrderId = readClientOrderId(call);
      const orderid = fields.required('orderid', RULES.orderid);
      if (version === 'v2')
        call.checkControl('create-card-ref', { client_orderid: clientOrderId, orderid });
      const { ref, tx } = await sandbox.store.withTx(async (ctx) => {
        const tx = await findOrder(call, ctx.q, orderid, clientOrderId, true);
        if (
          !TOKENIZABLE.has(tx.kind) ||
          !tx.card ||
          tx.status !== 'approved' ||
          tx.phase !== 'done'
        ) {
          throw refused(
            'not-tokenizable',
            `order ${orderid} is not an approved card payment; a card reference needs one`,
            'orderid',
          );
        }
        const existing = await sandbox.store.getCardRefBySource(ctx.q, orderid);
        if (existing) return { ref: existing, tx };
        const ref: CardRef = {
          id: randomUUID(),
          endpointId: tx.endpointId,
          sourceOrderId: orderid,
          scenario: tx.scenario,
          ...tx.card,
          createdAt: sandbox.clock.now(),
        };
        await sandbox.store.insertCardRef(ctx.q, ref);
        tx.extra = { ...tx.extra, cardRefId: ref.id };
        await sandbox.processor.save(ctx, tx);
        return { ref, tx };
      });
      return {
        type: 'create-card-ref-response',
        status: 'approved',
        'card-ref-id': ref.id,
        'paynet-order-id': tx.orderid,
        'merchant-order-id': tx.clientOrderId,
        'serial-number': serialNumber(),
      };
    },
  };
}

/** The card behind a reference, as a transaction records it. */
export function cardOf(ref: CardRef): CardInfo {
  return {
    bin: ref.bin,
    lastFour: ref.lastFour,
    brand: ref.brand,
    holder: ref.holder,
    expMonth: ref.expMonth,
    expYear: ref.expYear,
  };
}

export function cardInfoBody(ref: CardRef): PayBody {
  return {
    type: 'card-info-response',
    status: 'approved',
    'serial-number': serialNumber(),
    'card-ref-id': ref.id,
    bin: ref.bin,
    'last-four-digits': ref.lastFour,
    'masked-pan': `${ref.bin}******${ref.lastFour}`,
    'card-type': ref.brand,
    'card-exp-month': ref.expMonth,
    'card-exp-year': ref.expYear,
    'cardholder-name': ref.holder,
  };
}

const getCardInfo: OperationDef = {
  path: 'api/v2/get-card-info',
  auth: 'control',
  group: true,
  async handle(call) {
    const cardrefid = call.fields.required('cardrefid', RULES.id);
    call.checkControl('get-card-info', { cardrefid });
    return cardInfoBody(await ownCardRef(call, call.sandbox.store.db, cardrefid));
  },
};

const makeRebill: OperationDef = {
  path: 'api/v2/make-rebill',
  auth: 'control',
  group: true,
  async handle(call) {
    const { fields, sandbox } = call;
    const clientOrderId = fields.required('client_orderid', RULES.id);
    const cardrefid = fields.required('cardrefid', RULES.id);
    const currency = readCurrency(fields);
    const minor = amountMinor(fields, currency);
    const cvv2 = fields.optional('cvv2', RULES.cvv);
    // Where 3-D Secure brings a shopper who pays in person back to (the sale's redirect_url).
    const redirectUrl = fields.optional('redirect_url', RULES.url);
    fields.optional('comment', RULES.description);
    const extras = readPaymentExtras(fields);
    call.checkControl('make-rebill', {
      client_orderid: clientOrderId,
      cardrefid,
      amount: fields.get('amount'),
      currency,
    });
    const ref = await ownCardRef(call, sandbox.store.db, cardrefid);
    const charge = rebillScenario(ref.scenario, cvv2);
    // 3DS needs a page to bring the shopper back to: without one the charge runs without it.
    const present = charge.threeDs && redirectUrl !== undefined;
    const { tx } = await createTransaction(sandbox, call.endpointId, {
      kind: 'rebill',
      transactionType: 'rebill',
      clientOrderId,
      amountMinor: minor,
      currency,
      scenario: charge.scenario,
      card: cardOf(ref),
      extra: { cardRefId: ref.id, ...(present ? { [SHOPPER_PRESENT]: 'true' } : {}) },
      ...(present ? { redirectUrl } : {}),
      ...extras,
    });
    return asyncResponse(tx);
  },
};

export const cardRefOperations: OperationDef[] = [
  createCardRef('v2'),
  createCardRef('v4'),
  getCardInfo,
  makeRebill,
];
