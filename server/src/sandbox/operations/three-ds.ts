/**
 * The three 3DS uploads (control login + client-order-id + orderid), in the order rule 7 fixes:
 * 3DS 2.x method result (threeDSCompInd + browser fields), then the CRes of the challenge;
 * 3DS 1.0.2 the PaRes. An upload out of order, repeated, for another order, or after a final
 * status is a 400 and changes nothing. A CRes or PaRes must be the one the ACS issued.
 */

import type { ControlOperation } from '../../signing/index.js';
import { decodeJson, decodePares } from '../acs/messages.js';
import { invalidField, refused } from '../http/errors.js';
import { type Fields, RULES, type Rule, textRule } from '../http/fields.js';
import type { Call, OperationDef } from '../http/operation.js';
import type { Phase, Transaction } from '../model.js';
import { outcomeOf } from '../scenarios.js';
import { asyncResponse, findOrder, readClientOrderId } from './common.js';

const COLOR_DEPTHS = new Set(['1', '4', '8', '15', '16', '24', '32', '48']);
const re = (pattern: RegExp, what: string): Rule => ({ test: (v) => pattern.test(v), what });
const BOOL = re(/^(true|false)$/, 'true or false');

/** EMV browser fields: presence, type and length. */
const BROWSER_FIELDS: [string, Rule][] = [
  ['browserAcceptHeader', textRule(2048, '1 to 2048 characters')],
  ['browserIP', { ...RULES.ip }],
  ['browserJavaEnabled', BOOL],
  ['browserJavascriptEnabled', BOOL],
  ['browserLanguage', re(/^[A-Za-z0-9-]{1,8}$/, 'a language tag of 1 to 8 characters')],
  [
    'browserColorDepth',
    { test: (v) => COLOR_DEPTHS.has(v), what: 'one of 1, 4, 8, 15, 16, 24, 32, 48' },
  ],
  ['browserScreenHeight', re(/^\d{1,6}$/, '1 to 6 digits')],
  ['browserScreenWidth', re(/^\d{1,6}$/, '1 to 6 digits')],
  ['browserTZ', re(/^[+-]?\d{1,4}$/, 'minutes from UTC, at most 5 characters')],
  ['browserUserAgent', textRule(2048, '1 to 2048 characters')],
  ['challengeWindowSize', re(/^0[1-5]$/, 'one of 01, 02, 03, 04, 05')],
];

interface UploadIds {
  clientOrderId: string;
  orderid: string;
}

function readIds(call: Call): UploadIds {
  const clientOrderId = readClientOrderId(call);
  const orderid = call.fields.required('orderid', RULES.orderid);
  return { clientOrderId, orderid };
}

function requirePhase(tx: Transaction, expected: Phase, upload: string): void {
  if (tx.phase === expected) return;
  const now =
    tx.phase === 'done'
      ? `it is already final (${tx.status})`
      : tx.phase === 'awaiting-method-result'
        ? 'the 3DS Method result must be uploaded first'
        : tx.phase === 'awaiting-challenge'
          ? 'it waits on the challenge (CRes)'
          : tx.phase === 'awaiting-pares'
            ? 'it waits on the 3DS 1.0.2 PaRes'
            : tx.phase === 'completing' || tx.phase === 'authenticating'
              ? 'an upload for it is already being processed'
              : `it is ${tx.status} and does not wait on 3-D Secure`;
  throw refused('out-of-order', `${upload} is not expected for order ${tx.orderid}: ${now}`);
}

/**
 * `run` checks and moves the transaction. It may answer a refusal to send once the move is saved:
 * a gateway that refuses an upload and ends the transaction all the same (3ds2-cres-refused).
 */
function upload(
  path: string,
  name: ControlOperation,
  run: (tx: Transaction, fields: Fields) => Error | undefined,
  validate: (fields: Fields) => void,
): OperationDef {
  return {
    path,
    auth: 'control',
    async handle(call) {
      const ids = readIds(call);
      validate(call.fields);
      call.checkControl(name, {
        client_orderid: ids.clientOrderId,
        orderid: ids.orderid,
      });
      const { sandbox } = call;
      const { tx, refusal } = await sandbox.store.withTx(async (ctx) => {
        const tx = await findOrder(call, ctx.q, ids.orderid, ids.clientOrderId, true);
        const refusal = run(tx, call.fields);
        await sandbox.processor.save(ctx, tx);
        await sandbox.processor.schedule(ctx, tx);
        return { tx, refusal };
      });
      if (refusal) throw refusal;
      return asyncResponse(tx);
    },
  };
}

export const methodResultUpload = upload(
  'api/3ds/v1/upload-method-url-result',
  'upload-method-url-result',
  (tx, fields) => {
    requirePhase(tx, 'awaiting-method-result', 'a 3DS Method result');
    const threeDs = tx.threeDs!;
    if (fields.get('threeDSServerTransID') !== threeDs.serverTransId) {
      throw invalidField(
        'threeDSServerTransID',
        `is not the 3DS transaction of order ${tx.orderid}`,
      );
    }
    const compInd = fields.get('threeDSCompInd') as 'Y' | 'N' | 'U';
    const outcome = outcomeOf(tx.scenario);
    if (compInd === 'Y' && !threeDs.hasMethod) {
      throw invalidField('threeDSCompInd', 'is Y, but this card has no 3DS Method URL (send U)');
    }
    if (compInd === 'Y' && outcome.kind === '3ds2' && outcome.method === 'silent') {
      throw invalidField('threeDSCompInd', 'is Y, but the 3DS Method never completed (send N)');
    }
    if (compInd === 'U' && threeDs.hasMethod) {
      throw invalidField('threeDSCompInd', 'is U, but a 3DS Method URL was provided (send Y or N)');
    }
    threeDs.challengeWindowSize = fields.get('challengeWindowSize')!;
    tx.phase = 'authenticating';
    tx.status = 'processing';
  },
  (fields) => {
    fields.required('threeDSCompInd', re(/^[YNU]$/, 'Y, N or U'));
    fields.required('threeDSServerTransID', re(/^[0-9a-fA-F-]{36}$/, 'a 36-character UUID'));
    for (const [name, rule] of BROWSER_FIELDS) fields.required(name, rule);
  },
);

export const cresUpload = upload(
  'api/3ds/v1/upload-cres-result',
  'upload-cres-result',
  (tx, fields) => {
    requirePhase(tx, 'awaiting-challenge', 'a CRes');
    const threeDs = tx.threeDs!;
    const cres = decodeJson(fields.get('cres'));
    if (
      cres?.messageType !== 'CRes' ||
      cres.threeDSServerTransID !== threeDs.serverTransId ||
      cres.acsTransID !== threeDs.acsTransId
    ) {
      throw invalidField('cres', `is not a CRes of order ${tx.orderid}`);
    }
    if (!threeDs.acsResult) {
      throw refused(
        'challenge-not-completed',
        'cres: the challenge has not been completed',
        'cres',
      );
    }
    if (cres.transStatus !== threeDs.acsResult) {
      throw invalidField('cres', 'transStatus does not match what the ACS issued');
    }
    tx.phase = 'completing';
    tx.status = 'processing';
    const outcome = outcomeOf(tx.scenario);
    if (outcome.kind === '3ds2' && outcome.refusesCres) {
      // Authentication failed at the directory server: the upload is refused, the sale declined.
      threeDs.acsResult = 'N';
      return invalidField('cres', 'was refused: the directory server could not verify it');
    }
    return undefined;
  },
  (fields) => {
    fields.required('cres', re(/^[A-Za-z0-9_\-+/]{1,8192}={0,2}$/, 'base64url'));
  },
);

export const paresUpload = upload(
  'api/3ds/v1/upload-pares-result',
  'upload-pares-result',
  (tx, fields) => {
    requirePhase(tx, 'awaiting-pares', 'a PaRes');
    const threeDs = tx.threeDs!;
    const pares = decodePares(fields.get('paRes'));
    if (!pares || pares.xid !== threeDs.acsTransId) {
      throw invalidField('pares', `is not a PaRes of order ${tx.orderid}`);
    }
    const md = fields.get('md');
    if (md !== undefined && md !== threeDs.md) throw invalidField('md', 'does not match the order');
    if (!threeDs.acsResult) {
      throw refused(
        'authentication-not-completed',
        'pares: the ACS page was not completed',
        'pares',
      );
    }
    if (pares.status !== threeDs.acsResult) {
      throw invalidField('pares', 'status does not match what the ACS issued');
    }
    tx.phase = 'completing';
    tx.status = 'processing';
  },
  (fields) => {
    // The family's docs: the field table spells it `paRes`, the example body `md`
    // (docs/gateway.md#3ds-uploads).
    fields.required('paRes');
  },
);

export const threeDsOperations: OperationDef[] = [methodResultUpload, cresUpload, paresUpload];
