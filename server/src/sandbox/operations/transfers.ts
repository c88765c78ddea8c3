/**
 * Transfers (v4, RSA) and PAN eligibility (v2, HMAC-SHA1).
 * - transfer: source card (credit_card_number + card_printed_name + expiry + cvv2, or a card
 *   reference in card_recurring_payment_id), destination `destination-card-no` (or a card
 *   reference in destination_card_recurring_payment_id); returns `transaction-id`.
 * - transfer-by-ref: client-order-id, amount, currency, order_desc, destination-card-no;
 *   an optional source card reference (`cardrefid`, our reading); returns `transaction-id`.
 * - pan-eligibility/send: whether the card behind `sending-card-ref-id` can take part.
 */
import { invalidField } from '../http/errors.js';
import { amountMinor, RULES } from '../http/fields.js';
import type { Call, OperationDef } from '../http/operation.js';
import { serialNumber } from '../http/respond.js';
import type { CardInfo } from '../model.js';
import { outcomeOf } from '../scenarios.js';
import { cardOf, ownCardRef } from './card-refs.js';
import {
  asyncResponse,
  cardScenario,
  createTransaction,
  readCard,
  readClientOrderId,
  readCurrency,
} from './common.js';

async function transfer(call: Call, byRef: boolean) {
  const { fields, sandbox } = call;
  const clientOrderId = readClientOrderId(call);
  const currency = readCurrency(fields);
  const minor = amountMinor(fields, currency);
  fields.required('order_desc', RULES.description);
  fields.optional('ipaddress', RULES.ip);
  fields.optional('redirect_url', RULES.url);
  fields.optional('deposit2card', {
    test: (v) => v === 'true' || v === 'false',
    what: 'true or false',
  });
  const destinationRef = byRef
    ? undefined
    : fields.optional('destination_card_recurring_payment_id', RULES.id);
  const destinationPan = fields.optional('destination-card-no', RULES.pan);
  if (!destinationPan && !destinationRef) {
    throw invalidField(
      'destination-card-no',
      'is required (or destination_card_recurring_payment_id)',
    );
  }
  if (destinationRef) await ownCardRef(call, sandbox.store.db, destinationRef);
  let scenario = 'approved';
  let card: CardInfo | undefined;
  const sourceRefId = byRef
    ? fields.optional('cardrefid', RULES.id)
    : fields.optional('card_recurring_payment_id', RULES.id);
  if (sourceRefId) {
    const ref = await ownCardRef(call, sandbox.store.db, sourceRefId);
    scenario = ref.scenario;
    card = cardOf(ref);
  } else if (!byRef) {
    const source = readCard(fields, { cvvRequired: true });
    scenario = cardScenario(source, sandbox.clock.now());
    card = source.info;
  }
  const { tx } = await createTransaction(sandbox, call.endpointId, {
    kind: 'transfer',
    transactionType: 'transfer',
    clientOrderId,
    amountMinor: minor,
    currency,
    scenario,
    ...(card ? { card } : {}),
    extra: { destination: destinationPan ? `****${destinationPan.slice(-4)}` : 'card-ref' },
  });
  return asyncResponse(tx, { 'transaction-id': tx.orderid });
}

const panEligibility: OperationDef = {
  path: 'api/v2/pan-eligibility/send',
  auth: 'HMAC-SHA1',
  async handle(call) {
    const clientOrderId = readClientOrderId(call);
    const refId = call.fields.required('sending-card-ref-id', RULES.id);
    const ref = await ownCardRef(call, call.sandbox.store.db, refId);
    const outcome = outcomeOf(ref.scenario);
    const eligible = !['decline', 'error', 'filtered'].includes(outcome.kind);
    return {
      type: 'pan-eligibility-response',
      status: 'approved',
      'serial-number': serialNumber(),
      'merchant-order-id': clientOrderId,
      'card-ref-id': ref.id,
      eligible: eligible ? 'true' : 'false',
    };
  },
};

export const transferOperations: OperationDef[] = [
  { path: 'api/v4/transfer', auth: 'RSA-SHA256', handle: (call) => transfer(call, false) },
  { path: 'api/v4/transfer-by-ref', auth: 'RSA-SHA256', handle: (call) => transfer(call, true) },
  panEligibility,
];
