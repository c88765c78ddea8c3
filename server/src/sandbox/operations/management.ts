/**
 * capture, void and return (v2, control): checked against the transition rules
 * (state-machine.ts) in the same database transaction that records them, answered
 * `async-response` / `processing`, completed after the processing delay.
 */
import { invalidField, missingField } from '../http/errors.js';
import { amountMinor, RULES } from '../http/fields.js';
import type { Call, OperationDef } from '../http/operation.js';
import { checkCapture, checkReturn, checkVoid, type PartialAmount } from '../state-machine.js';
import { asyncResponse, findOrder, readCurrency } from './common.js';

type ManagementType = 'capture' | 'void' | 'return';

function readPartial(call: Call): PartialAmount | undefined {
  const { fields } = call;
  const hasAmount = fields.has('amount');
  const hasCurrency = fields.has('currency');
  if (!hasAmount && !hasCurrency) return undefined;
  if (!hasCurrency) throw missingField('currency');
  if (!hasAmount) throw invalidField('amount', 'is required with currency');
  const currency = readCurrency(fields);
  return { currency, amountMinor: amountMinor(fields, currency) };
}

function management(type: ManagementType): OperationDef {
  return {
    path: `api/v2/${type}`,
    auth: 'control',
    group: true,
    async handle(call) {
      const { fields, sandbox } = call;
      const clientOrderId = fields.required('client_orderid', RULES.id);
      const orderid = fields.required('orderid', RULES.orderid);
      let partial: PartialAmount | undefined;
      if (type === 'void') {
        fields.forbid('amount', 'void never takes an amount: it cancels the whole authorization');
        fields.forbid('currency', 'void never takes a currency');
      } else {
        partial = readPartial(call);
      }
      call.checkControl(type, {
        client_orderid: clientOrderId,
        orderid,
        amount: fields.get('amount'),
        currency: fields.get('currency'),
      });
      const tx = await sandbox.store.withTx(async (ctx) => {
        const tx = await findOrder(call, ctx.q, orderid, clientOrderId, true);
        const amount =
          type === 'capture'
            ? checkCapture(tx, partial)
            : type === 'void'
              ? checkVoid(tx)
              : checkReturn(tx, partial);
        tx.pending = { type, amountMinor: amount };
        tx.phase = 'operation';
        tx.status = 'processing';
        tx.transactionType = type;
        await sandbox.processor.save(ctx, tx);
        await sandbox.processor.schedule(ctx, tx);
        return tx;
      });
      return asyncResponse(tx);
    },
  };
}

export const managementOperations: OperationDef[] = [
  management('capture'),
  management('void'),
  management('return'),
];
