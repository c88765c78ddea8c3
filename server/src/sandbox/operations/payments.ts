/**
 * sale, preauth and account-verification (v2, control). Each answers at once with
 * `async-response` / `processing`; the outcome follows the card's scenario through status and
 * callbacks. 3-D Secure cards stop in a phase that waits on the browser (see three-ds.ts); a
 * gateway-driven 3DS card names its page in this very answer (acs/gateway-3ds.ts).
 */
import { randomBytes } from 'node:crypto';
import { GATEWAY_PAGE_EXTRA, gatewayPageFields } from '../acs/gateway-3ds.js';
import { amountMinor, type Fields, RULES } from '../http/fields.js';
import type { Call, OperationDef } from '../http/operation.js';
import type { Phase, TxKind } from '../model.js';
import { outcomeOf } from '../scenarios.js';
import {
  asyncResponse,
  cardScenario,
  createTransaction,
  readCard,
  readCurrency,
} from './common.js';

/** Optional fields the gateway takes with a payment, validated when present; the payer's kept
 * as sent (`payer`), so a test can see what a sale carried. */
export function readPaymentExtras(fields: Fields) {
  fields.optional('ipaddress', RULES.ip);
  const payer: Record<string, string> = {};
  const keep = (name: string, value: string | undefined) => {
    if (value !== undefined) payer[name] = value;
  };
  for (const name of ['first_name', 'last_name', 'address1', 'city', 'zip_code', 'state']) {
    keep(name, fields.optional(name, RULES.name));
  }
  keep('country', fields.optional('country', RULES.country));
  keep('phone', fields.optional('phone', RULES.phone));
  const orderDesc = fields.optional('order_desc', RULES.description);
  const callbackUrl = fields.optional('server_callback_url', RULES.url);
  return {
    payer,
    ...(orderDesc ? { orderDesc } : {}),
    ...(callbackUrl ? { callbackUrl } : {}),
  };
}

function cardPayment(path: string, kind: TxKind): OperationDef {
  return {
    path,
    auth: 'control',
    group: true,
    async handle(call: Call) {
      const { fields } = call;
      const clientOrderId = fields.required('client_orderid', RULES.id);
      const currency = readCurrency(fields);
      const isVerification = kind === 'account-verification';
      const minor = isVerification ? 0 : amountMinor(fields, currency);
      const email = fields.required('email', RULES.email);
      const card = readCard(fields, { cvvRequired: true });
      const redirectUrl = fields.required('redirect_url', RULES.url);
      const extras = readPaymentExtras(fields);
      if (isVerification) {
        call.checkControl('account-verification', { client_orderid: clientOrderId, email });
      } else {
        call.checkControl(kind === 'sale' ? 'sale' : 'preauth', {
          client_orderid: clientOrderId,
          amount: fields.get('amount'),
          currency,
          email,
        });
      }
      const scenario = cardScenario(card, call.sandbox.clock.now());
      const outcome = outcomeOf(scenario);
      // Gateway-driven 3DS: the shopper goes to the gateway's page at once (named in this answer).
      const page =
        outcome.kind === 'gateway-3ds' && !isVerification
          ? {
              phase: 'form-challenge' as Phase,
              formToken: randomBytes(18).toString('base64url'),
              extra: { [GATEWAY_PAGE_EXTRA]: outcome.via },
            }
          : {};
      const { tx } = await createTransaction(call.sandbox, call.endpointId, {
        kind,
        transactionType: kind,
        clientOrderId,
        amountMinor: minor,
        currency,
        scenario,
        card: card.info,
        email,
        redirectUrl,
        ...extras,
        ...page,
      });
      return asyncResponse(tx, gatewayPageFields(tx, call.baseUrl));
    },
  };
}

export const paymentOperations: OperationDef[] = [
  cardPayment('api/v2/sale', 'sale'),
  cardPayment('api/v2/preauth', 'preauth'),
  cardPayment('api/v2/account-verification', 'account-verification'),
];
