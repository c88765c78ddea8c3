/**
 * status (v2, control login + client_orderid + orderid, orderid empty when absent): the current
 * state of one order, by `orderid`, or by `client_orderid` when `orderid` is not sent. While a
 * 3DS transaction waits on the browser it is `processing` and says what the browser does next.
 */
import { fromMinorUnits } from '../../signing/index.js';
import { gatewayPageFields } from '../acs/gateway-3ds.js';
import { creqFor, pareqFor } from '../acs/messages.js';
import { refused } from '../http/errors.js';
import { RULES } from '../http/fields.js';
import type { OperationDef } from '../http/operation.js';
import { type PayBody, serialNumber } from '../http/respond.js';
import type { Transaction } from '../model.js';
import { findOrder } from './common.js';

export function statusBody(tx: Transaction, baseUrl: string): PayBody {
  const body: PayBody = {
    type: 'status-response',
    status: tx.status,
    'paynet-order-id': tx.orderid,
    'merchant-order-id': tx.clientOrderId,
    'serial-number': serialNumber(),
    'end-point-id': tx.endpointId,
    'transaction-type': tx.transactionType,
    // The amount of the latest operation: a partial capture or return reports its own amount.
    amount: fromMinorUnits(
      tx.pending?.amountMinor ?? tx.operations.at(-1)?.amountMinor ?? tx.amountMinor,
      tx.currency,
    ),
    currency: tx.currency,
  };
  if (tx.card) {
    body['last-four-digits'] = tx.card.lastFour;
    body.bin = tx.card.bin;
    body['card-type'] = tx.card.brand;
    body['cardholder-name'] = tx.card.holder;
    body['card-exp-month'] = tx.card.expMonth;
    body['card-exp-year'] = tx.card.expYear;
  }
  if (tx.status === 'declined' || tx.status === 'error' || tx.status === 'filtered') {
    body['error-message'] = tx.errorMessage;
    body['error-code'] = tx.errorCode;
  }
  const threeDs = tx.threeDs;
  if (threeDs && tx.phase === 'awaiting-method-result') {
    body['three-ds-server-trans-id'] = threeDs.serverTransId;
    if (threeDs.hasMethod) body['three-ds-method-url'] = `${baseUrl}/acs/3ds-method`;
  } else if (threeDs && tx.phase === 'awaiting-challenge') {
    body['three-ds-server-trans-id'] = threeDs.serverTransId;
    body['acs-url'] = `${baseUrl}/acs/challenge`;
    body.creq = creqFor(tx);
    body['challenge-window-size'] = threeDs.challengeWindowSize ?? '05';
  } else if (threeDs && tx.phase === 'awaiting-pares') {
    body['acs-url'] = `${baseUrl}/acs/3ds1`;
    body.pareq = pareqFor(tx);
    // A 1.0.2 transaction may have no MD at all (test card 3ds1-no-md): then none is sent.
    if (threeDs.md) body.md = threeDs.md;
  }
  if (tx.phase === 'awaiting-form' && tx.formToken) {
    body['redirect-to'] = `${baseUrl}/form/${tx.formToken}`;
  }
  Object.assign(body, gatewayPageFields(tx, baseUrl));
  if (tx.extra?.cardRefId) body['card-ref-id'] = tx.extra.cardRefId;
  if (tx.extra?.recurringPaymentId) {
    body['recurring-payment-id'] = tx.extra.recurringPaymentId;
  }
  return body;
}

export const statusOperation: OperationDef = {
  path: 'api/v2/status',
  auth: 'control',
  group: true,
  async handle(call) {
    const { fields, sandbox } = call;
    const clientOrderId = fields.required('client_orderid', RULES.id);
    const orderid = fields.optional('orderid', RULES.orderid);
    call.checkControl('status', { client_orderid: clientOrderId, orderid: orderid ?? '' });
    const tx = orderid
      ? await findOrder(call, sandbox.store.db, orderid, clientOrderId, false)
      : await sandbox.store.getTxByClientOrderId(sandbox.store.db, call.endpointId, clientOrderId);
    if (!tx) {
      throw refused(
        'unknown-order',
        `client_orderid: no order ${clientOrderId} on this endpoint`,
        'client_orderid',
      );
    }
    return statusBody(tx, call.baseUrl);
  },
};
