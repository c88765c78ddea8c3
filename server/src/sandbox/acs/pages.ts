/**
 * The fake ACS: the 3DS Method page (hidden iframe), the 3DS 2.x challenge page and the 3DS 1.0.2
 * authentication page. They record the ACS's result on the transaction, so an upload can only
 * carry what the ACS actually issued.
 */
import express, { type Request, type Response, Router } from 'express';
import type { Sandbox } from '../context.js';
import { RULES } from '../http/fields.js';
import { expectedOtp, outcomeOf } from '../scenarios.js';
import { amountText, autoSubmitPage, messagePage, otpPage, pageSender } from './html.js';
import { cresFor, decodeJson, decodePareq, encodeJson, paresFor } from './messages.js';

/** A field from the POSTed form, or from the query of a GET. */
function param(req: Request, name: string): string | undefined {
  const source = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown>;
  const value = source?.[name];
  return typeof value === 'string' ? value : undefined;
}

function httpUrl(value: string | undefined): string | undefined {
  return value && RULES.url.test(value) ? value : undefined;
}

export function acsRouter(sandbox: Sandbox): Router {
  const router = Router();
  router.use(express.urlencoded({ extended: false, limit: '32kb' }));
  const { store } = sandbox;
  const sendPage = pageSender(sandbox.frameAncestors);

  // 3DS Method: the merchant posts threeDSMethodData in a hidden iframe; the ACS "fingerprints"
  // and posts threeDSMethodData back to the notification URL (unless the card's method is silent).
  router.all('/acs/3ds-method', async (req: Request, res: Response) => {
    const data = decodeJson(param(req, 'threeDSMethodData'));
    const transId = typeof data?.threeDSServerTransID === 'string' ? data.threeDSServerTransID : '';
    const notificationUrl = httpUrl(
      typeof data?.threeDSMethodNotificationURL === 'string'
        ? data.threeDSMethodNotificationURL
        : undefined,
    );
    if (!transId || !notificationUrl) {
      sendPage(res, messagePage('3DS Method', 'threeDSMethodData is missing or malformed.', 400));
      return;
    }
    // Loading the page changes nothing on the transaction: the merchant's upload reports it.
    const tx = await store.getTxBy(store.db, 'three_ds_server_trans_id', transId);
    const outcome = tx ? outcomeOf(tx.scenario) : undefined;
    const silent =
      !tx?.threeDs?.hasMethod || tx.phase !== 'awaiting-method-result'
        ? undefined
        : outcome?.kind === '3ds2' && outcome.method === 'silent';
    if (silent === undefined) {
      sendPage(
        res,
        messagePage('3DS Method', 'No 3DS Method is expected for this transaction.', 400),
      );
    } else if (silent) {
      // The sandbox's "method timeout" card: the page loads and never notifies.
      sendPage(res, { title: '3DS Method', body: '' });
    } else {
      sendPage(
        res,
        autoSubmitPage('3DS Method', notificationUrl, {
          threeDSMethodData: encodeJson({ threeDSServerTransID: transId }),
        }),
      );
    }
  });

  // 3DS 2.x challenge: the browser posts creq (+ threeDSSessionData) in the challenge iframe.
  router.all('/acs/challenge', async (req, res) => {
    const creq = param(req, 'creq');
    const message = decodeJson(creq);
    const tx =
      message?.messageType === 'CReq' && typeof message.acsTransID === 'string'
        ? await store.getTxBy(store.db, 'acs_trans_id', message.acsTransID)
        : undefined;
    if (!tx || tx.threeDs?.serverTransId !== message?.threeDSServerTransID) {
      sendPage(
        res,
        messagePage('Authentication', 'creq is missing or not a known challenge.', 400),
      );
      return;
    }
    if (tx.phase !== 'awaiting-challenge' || tx.threeDs?.acsResult) {
      sendPage(res, messagePage('Authentication', 'This challenge is no longer open.', 400));
      return;
    }
    sendPage(
      res,
      otpPage({
        title: 'Confirm your payment',
        action: `${sandbox.basePath}/acs/challenge/complete`,
        hidden: { creq, threeDSSessionData: param(req, 'threeDSSessionData') },
        amount: amountText(tx),
      }),
    );
  });

  router.post('/acs/challenge/complete', async (req, res) => {
    const message = decodeJson(param(req, 'creq'));
    const acsTransId = typeof message?.acsTransID === 'string' ? message.acsTransID : '';
    const cancelled = param(req, 'action') === 'cancel';
    const otp = param(req, 'otp')?.trim() ?? '';
    const done = await store.withTx(async (ctx) => {
      const tx = acsTransId
        ? await store.getTxBy(ctx.q, 'acs_trans_id', acsTransId, true)
        : undefined;
      if (!tx?.threeDs || tx.phase !== 'awaiting-challenge' || tx.threeDs.acsResult)
        return undefined;
      const result = !cancelled && otp === expectedOtp(tx) ? 'Y' : 'N';
      tx.threeDs.acsResult = result;
      await sandbox.processor.save(ctx, tx);
      return { tx, result } as const;
    });
    if (!done?.tx.redirectUrl) {
      sendPage(res, messagePage('Authentication', 'This challenge is no longer open.', 400));
      return;
    }
    sendPage(
      res,
      autoSubmitPage(
        done.result === 'Y' ? 'Authenticated' : 'Authentication failed',
        done.tx.redirectUrl,
        {
          cres: cresFor(done.tx, done.result, cancelled),
          threeDSSessionData: param(req, 'threeDSSessionData') || undefined,
        },
      ),
    );
  });

  // 3DS 1.0.2: the browser posts PaReq, MD and TermUrl.
  router.all('/acs/3ds1', async (req, res) => {
    const pareq = decodePareq(param(req, 'PaReq'));
    const tx = pareq ? await store.getTxBy(store.db, 'acs_trans_id', pareq.xid) : undefined;
    if (tx?.phase !== 'awaiting-pares' || tx.threeDs?.acsResult) {
      sendPage(
        res,
        messagePage('Authentication', 'PaReq is missing or not an open authentication.', 400),
      );
      return;
    }
    sendPage(
      res,
      otpPage({
        title: 'Verified payment (3-D Secure)',
        action: `${sandbox.basePath}/acs/3ds1/complete`,
        hidden: {
          PaReq: param(req, 'PaReq'),
          MD: param(req, 'MD'),
          TermUrl: httpUrl(param(req, 'TermUrl')) ?? tx.redirectUrl,
        },
        amount: amountText(tx),
      }),
    );
  });

  router.post('/acs/3ds1/complete', async (req, res) => {
    const pareq = decodePareq(param(req, 'PaReq'));
    const cancelled = param(req, 'action') === 'cancel';
    const otp = param(req, 'otp')?.trim() ?? '';
    const done = await store.withTx(async (ctx) => {
      const tx = pareq ? await store.getTxBy(ctx.q, 'acs_trans_id', pareq.xid, true) : undefined;
      if (!tx?.threeDs || tx.phase !== 'awaiting-pares' || tx.threeDs.acsResult) return undefined;
      const result = !cancelled && otp === expectedOtp(tx) ? 'Y' : 'N';
      tx.threeDs.acsResult = result;
      await sandbox.processor.save(ctx, tx);
      return { tx, result } as const;
    });
    const termUrl = httpUrl(param(req, 'TermUrl')) ?? done?.tx.redirectUrl;
    if (!done || !termUrl) {
      sendPage(res, messagePage('Authentication', 'This authentication is no longer open.', 400));
      return;
    }
    sendPage(
      res,
      autoSubmitPage(done.result === 'Y' ? 'Authenticated' : 'Authentication failed', termUrl, {
        PaRes: paresFor(done.tx, done.result),
        MD: param(req, 'MD') ?? done.tx.threeDs?.md,
      }),
    );
  });

  return router;
}
