/**
 * Hosted forms: sale-form, preauth-form, account-verification-form, payment-form and payout-form.
 * Every one is signed with a control: the spec states none for payment-form and payout-form, but
 * a request nobody signed must not create a transaction, so those two are checked with
 * sale-form's formula, as the gateway client signs them. Each answers `async-form-response` with
 * `redirect-url`, the sandbox page that collects the card (acs/form-pages.ts).
 */
import { randomBytes } from 'node:crypto';
import { amountMinor, RULES } from '../http/fields.js';
import type { Call, OperationDef } from '../http/operation.js';
import { serialNumber } from '../http/respond.js';
import type { TxKind } from '../model.js';
import { createTransaction, readCurrency } from './common.js';

type FormKind =
  | 'sale-form'
  | 'preauth-form'
  | 'account-verification-form'
  | 'payment-form'
  | 'payout-form';

const KIND: Record<FormKind, TxKind> = {
  'sale-form': 'sale',
  'preauth-form': 'preauth',
  'account-verification-form': 'account-verification',
  'payment-form': 'sale',
  'payout-form': 'payout',
};

function form(name: FormKind): OperationDef {
  return {
    path: `api/v2/${name}`,
    auth: 'control',
    group: true,
    async handle(call: Call) {
      const { fields } = call;
      const kind = KIND[name];
      const clientOrderId = fields.required('client_orderid', RULES.id);
      const currency = readCurrency(fields);
      const minor = kind === 'account-verification' ? 0 : amountMinor(fields, currency);
      const email = fields.required('email', RULES.email);
      const redirectUrl = fields.required('redirect_url', RULES.url);
      const callbackUrl = fields.optional('server_callback_url', RULES.url);
      const orderDesc = fields.optional('order_desc', RULES.description);
      const values = {
        client_orderid: clientOrderId,
        amount: fields.get('amount'),
        currency,
        email,
      };
      if (name === 'account-verification-form') call.checkControl(name, values);
      else call.checkControl(name === 'preauth-form' ? 'preauth-form' : 'sale-form', values);
      const { tx } = await createTransaction(call.sandbox, call.endpointId, {
        kind,
        transactionType: kind,
        clientOrderId,
        amountMinor: minor,
        currency,
        scenario: '',
        phase: 'awaiting-form',
        formToken: randomBytes(18).toString('base64url'),
        email,
        redirectUrl,
        ...(callbackUrl ? { callbackUrl } : {}),
        ...(orderDesc ? { orderDesc } : {}),
      });
      return {
        type: 'async-form-response',
        status: tx.status,
        'paynet-order-id': tx.orderid,
        'merchant-order-id': tx.clientOrderId,
        'serial-number': serialNumber(),
        'end-point-id': tx.endpointId,
        'redirect-url': `${call.baseUrl}/form/${tx.formToken}`,
      };
    },
  };
}

export const formOperations: OperationDef[] = [
  form('sale-form'),
  form('preauth-form'),
  form('account-verification-form'),
  form('payment-form'),
  form('payout-form'),
];
