/**
 * The hosted form pages: an accessible card form (labelled fields, errors announced and tied to
 * their field), gateway-driven 3DS on the sandbox's own one-time-code page when the card needs
 * it, then the final redirect: a POST to `redirect_url` with status, orderid, client_orderid,
 * merchant_order and control = sha1(status + orderid + client_orderid + control key).
 *
 * The same code page (`/form/{token}/bank`) is where an API sale of a gateway-driven 3DS card
 * sends the shopper (its `redirect_url` or `html`, gateway-3ds.ts); it ends the same way.
 */
import express, { type Request, type Response, Router } from 'express';
import { finalNotificationControl } from '../callbacks.js';
import type { Sandbox } from '../context.js';
import { fourDigitYear, RULES, twoDigitMonth } from '../http/fields.js';
import type { Transaction } from '../model.js';
import { cardInfo, cardScenario } from '../operations/common.js';
import { expectedOtp, payoutScenario } from '../scenarios.js';
import type { TxContext } from '../store.js';
import {
  amountText,
  autoSubmitPage,
  escapeHtml,
  messagePage,
  otpPage,
  type Page,
  pageSender,
} from './html.js';

interface FieldSpec {
  name: string;
  label: string;
  autocomplete: string;
  inputmode?: string;
  rule: { test: (v: string) => boolean; what: string };
}

const CARD_FIELDS: FieldSpec[] = [
  {
    name: 'credit_card_number',
    label: 'Card number',
    autocomplete: 'cc-number',
    inputmode: 'numeric',
    rule: RULES.pan,
  },
  { name: 'card_printed_name', label: 'Name on card', autocomplete: 'cc-name', rule: RULES.name },
  {
    name: 'expire_month',
    label: 'Expiry month (MM)',
    autocomplete: 'cc-exp-month',
    inputmode: 'numeric',
    rule: RULES.month,
  },
  {
    name: 'expire_year',
    label: 'Expiry year (YYYY)',
    autocomplete: 'cc-exp-year',
    inputmode: 'numeric',
    rule: RULES.year,
  },
  {
    name: 'cvv2',
    label: 'Security code (CVV)',
    autocomplete: 'cc-csc',
    inputmode: 'numeric',
    rule: RULES.cvv,
  },
];

function fieldsFor(tx: Transaction): FieldSpec[] {
  // A payout form collects the recipient's card: no expiry check or CVV needed to receive.
  return tx.kind === 'payout' ? CARD_FIELDS.slice(0, 2) : CARD_FIELDS;
}

function formPage(
  sandbox: Sandbox,
  tx: Transaction,
  values: Record<string, string>,
  errors: Record<string, string>,
): Page {
  const title = tx.kind === 'payout' ? 'Where should we send the money?' : 'Pay by card';
  const inputs = fieldsFor(tx)
    .map((f) => {
      const error = errors[f.name];
      const value =
        f.name === 'credit_card_number' || f.name === 'cvv2' ? '' : (values[f.name] ?? '');
      return (
        `<label for="${f.name}">${escapeHtml(f.label)}</label>` +
        `<input id="${f.name}" name="${f.name}" autocomplete="${f.autocomplete}" required` +
        (f.inputmode ? ` inputmode="${f.inputmode}"` : '') +
        (error ? ` aria-invalid="true" aria-describedby="${f.name}-error"` : '') +
        ` value="${escapeHtml(value)}">` +
        (error ? `<p id="${f.name}-error" class="error">${escapeHtml(error)}</p>` : '')
      );
    })
    .join('');
  const summary = Object.keys(errors).length
    ? `<p role="alert" class="error">Please correct the highlighted fields.</p>`
    : '';
  const amount = tx.kind === 'account-verification' ? 'Card check, no charge' : amountText(tx);
  return {
    title,
    status: Object.keys(errors).length ? 400 : 200,
    body:
      `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(amount)}</p>${summary}` +
      `<form method="post" action="${sandbox.basePath}/form/${escapeHtml(tx.formToken ?? '')}" novalidate>${inputs}` +
      `<div class="actions"><button type="submit">${tx.kind === 'payout' ? 'Send' : 'Pay'}</button></div></form>`,
  };
}

/** The gateway's final redirect to `redirect_url`. */
export function finalRedirectPage(sandbox: Sandbox, tx: Transaction): Page {
  const merchant = sandbox.merchants.byEndpoint(tx.endpointId)!;
  const control = finalNotificationControl(tx, merchant.controlKey);
  return autoSubmitPage('Returning to the shop', tx.redirectUrl!, {
    status: tx.status,
    orderid: tx.orderid,
    client_orderid: tx.clientOrderId,
    merchant_order: tx.clientOrderId,
    control,
    ...(tx.errorMessage ? { error_message: tx.errorMessage } : {}),
  });
}

function str(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.trim() : '';
}

export function formRouter(sandbox: Sandbox): Router {
  const router = Router();
  router.use('/form', express.urlencoded({ extended: false, limit: '16kb' }));
  const { store, processor } = sandbox;
  const sendPage = pageSender(sandbox.frameAncestors);

  const load = (ctx: TxContext | undefined, token: string) =>
    store.getTxBy(ctx?.q ?? store.db, 'form_token', token, ctx !== undefined);

  router.get('/form/:token', async (req: Request, res: Response) => {
    const tx = await load(undefined, String(req.params.token));
    if (tx?.phase !== 'awaiting-form') {
      sendPage(res, messagePage('Payment', 'This payment page is no longer available.', 404));
      return;
    }
    sendPage(res, formPage(sandbox, tx, {}, {}));
  });

  router.post('/form/:token', async (req, res) => {
    const token = String(req.params.token);
    const page = await store.withTx(async (ctx): Promise<Page> => {
      const tx = await load(ctx, token);
      if (tx?.phase !== 'awaiting-form') {
        return messagePage('Payment', 'This payment page is no longer available.', 404);
      }
      const values: Record<string, string> = {};
      const errors: Record<string, string> = {};
      for (const f of fieldsFor(tx)) {
        values[f.name] = str(req, f.name);
        if (!values[f.name]) errors[f.name] = `${f.label} is required.`;
        else if (!f.rule.test(values[f.name]!))
          errors[f.name] = `${f.label} must be ${f.rule.what}.`;
      }
      if (Object.keys(errors).length) return formPage(sandbox, tx, values, errors);
      const pan = values.credit_card_number!;
      // A payout form asks no expiry: the card is recorded as valid to 12/2099.
      const info = cardInfo(
        pan,
        values.card_printed_name!,
        twoDigitMonth(values.expire_month ?? '12'),
        fourDigitYear(values.expire_year ?? '2099'),
      );
      tx.card = info;
      tx.scenario =
        tx.kind === 'payout'
          ? payoutScenario(pan)
          : cardScenario(
              { pan, ...(values.cvv2 ? { cvv: values.cvv2 } : {}), info },
              sandbox.clock.now(),
            );
      delete tx.formToken;
      const outcome = processor.outcome(tx);
      const needsCode =
        (outcome.kind === '3ds2' && outcome.challenge) ||
        outcome.kind === '3ds1' ||
        outcome.kind === 'gateway-3ds';
      if (needsCode) {
        tx.phase = 'form-challenge';
        tx.formToken = token;
        await processor.save(ctx, tx);
        return otpPage({
          title: 'Confirm your payment',
          action: `${sandbox.basePath}/form/${token}/3ds`,
          hidden: {},
          amount: amountText(tx),
        });
      }
      await processor.settleWithout3ds(ctx, tx);
      return finalRedirectPage(sandbox, tx);
    });
    sendPage(res, page);
  });

  // The gateway's own code page, as an API sale's `redirect_url` (GET) or `html` form (POST) opens it.
  router.all('/form/:token/bank', async (req, res) => {
    const token = String(req.params.token);
    const tx = await load(undefined, token);
    if (tx?.phase !== 'form-challenge') {
      sendPage(res, messagePage('Authentication', 'This authentication is no longer open.', 404));
      return;
    }
    sendPage(
      res,
      otpPage({
        title: 'Confirm your payment',
        action: `${sandbox.basePath}/form/${token}/3ds`,
        hidden: {},
        amount: amountText(tx),
      }),
    );
  });

  router.post('/form/:token/3ds', async (req, res) => {
    const page = await store.withTx(async (ctx): Promise<Page> => {
      const tx = await load(ctx, String(req.params.token));
      if (tx?.phase !== 'form-challenge') {
        return messagePage('Authentication', 'This authentication is no longer open.', 400);
      }
      delete tx.formToken;
      const outcome = processor.outcome(tx);
      if (str(req, 'action') !== 'cancel' && str(req, 'otp') === expectedOtp(tx)) {
        if (outcome.kind === 'gateway-3ds' && outcome.issuer === 'decline') {
          await processor.finish(ctx, tx, 'declined', { code: '05', message: 'Do not honour' });
        } else {
          await processor.finish(ctx, tx, 'approved');
        }
      } else {
        await processor.finish(ctx, tx, 'declined', {
          code: '3DS-FAILED',
          message: '3-D Secure authentication failed',
        });
      }
      return finalRedirectPage(sandbox, tx);
    });
    sendPage(res, page);
  });

  return router;
}
