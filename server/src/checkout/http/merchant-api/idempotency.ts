/**
 * `Idempotency-Key` on merchant POSTs: the first request with a key runs; every repeat with the
 * same body gets the first answer verbatim (and moves no money); the same key with another body
 * is refused (422); a repeat while the first still runs waits for it a little, then gets 409.
 * Answers of 5xx are not kept, nor those that hold for now only (errors.ts, conflictForNow), so
 * a retry runs again, as does one after its instance died: what it would repeat is stopped below
 * the key, by the merchant's own order id for a rebill, payout or transfer (the gateway's
 * client_orderid), and by `keyedOperationId` for a capture, void or return, whose ids are ours.
 * A gateway answer lost after the request left is not a 5xx: the operation is answered 202
 * `unknown` and kept, since the gateway may have acted (operation-runner.ts).
 */
import { createHash, createHmac } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { hashRequestBody } from '../../../store/index.js';
import type { Context } from '../../context.js';
import { HttpError } from '../../errors.js';
import type { RouteSpec } from './route-spec.js';

/** The header's rule, as the OpenAPI document states it too. */
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9._:-]{1,255}$';
const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** How long a completed key answers repeats: a day covers any merchant's retry schedule. */
export const IDEMPOTENCY_KEEP_SECONDS = 24 * 60 * 60;

/** How often the background timer forgets keys older than that. */
export const IDEMPOTENCY_PURGE_EVERY_MS = 60 * 60 * 1000;

/** Forgets completed keys past their retention, so idempotency_keys does not grow forever. */
export function purgeIdempotencyKeys(ctx: Context): Promise<number> {
  return ctx.store.idempotency.purge(IDEMPOTENCY_KEEP_SECONDS);
}

/**
 * What a key is scoped to: the matched route and its decoded parameters, never the raw path. The
 * raw path has spellings that reach the same handler (`%2D` for `-`, and before strict routing a
 * trailing slash or another case), and each spelling would have been a fresh key: a second refund.
 */
export function idempotencyScope(req: Request): string {
  const route = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof route !== 'string') {
    throw new Error('idempotency runs on a matched route only');
  }
  return `${req.method} ${route} ${JSON.stringify(req.params)}`;
}

/**
 * A stable id for what the request running under this response's Idempotency-Key creates, or
 * undefined without a key. A retry after the key's record was lost (a 5xx released it, or the
 * instance died holding it and the claim expired) derives the same id, and so finds the capture
 * or return the first attempt made instead of sending a second one.
 */
export function keyedOperationId(res: Response): string | undefined {
  const keyed = res.locals.idempotency as { scope: string; key: string } | undefined;
  if (!keyed) return undefined;
  return createHash('sha256').update(`${keyed.scope}\n${keyed.key}`).digest('hex').slice(0, 32);
}

type SecretField = RouteSpec['secretField'];

/** What the key's record keeps of an answer: all of it but the route's secret field. */
function kept(secret: SecretField, body: unknown): unknown {
  if (!secret || typeof body !== 'object' || body === null) return body;
  const { [secret.name]: _secret, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** A kept answer as it is replayed: its secret field made again (the same session, expiry...). */
function replayed(secret: SecretField, body: unknown): unknown {
  if (!secret || typeof body !== 'object' || body === null) return body;
  const answer = body as Record<string, unknown>;
  const value = secret.remake(answer);
  return value === undefined ? answer : { ...answer, [secret.name]: value };
}

/** Route middleware of every merchant POST (route-spec.ts mounts it after the route matched). */
export function idempotency(ctx: Context): (spec: RouteSpec) => RequestHandler {
  return (spec) => async (req, res, next) => {
    if (req.method !== 'POST') return next();
    const key = req.get('idempotency-key');
    if (key === undefined) return next();
    if (!KEY.test(key)) {
      throw new HttpError(
        400,
        'validation',
        'Idempotency-Key must be 1-255 letters, digits or . _ : -',
        'Idempotency-Key',
      );
    }
    const scope = idempotencyScope(req);
    // Keyed hash: a body may hold a payout card number; even its plain hash is not stored.
    const requestHash = createHmac('sha256', ctx.config.merchantApiKey)
      .update(hashRequestBody(req.body ?? {}))
      .digest('hex');
    const begun = await ctx.store.idempotency.begin({
      scope,
      key,
      requestHash,
      waitMs: 5_000,
      lockSeconds: 120,
    });
    if (begun.outcome === 'replay') {
      res
        .set('Idempotent-Replayed', 'true')
        .status(begun.status)
        .json(replayed(spec.secretField, begun.body));
      return;
    }
    if (begun.outcome === 'mismatch') {
      throw new HttpError(
        422,
        'idempotency-conflict',
        'This Idempotency-Key was used with a different body',
      );
    }
    if (begun.outcome === 'in-progress') {
      throw new HttpError(
        409,
        'idempotency-conflict',
        'A request with this Idempotency-Key is still running',
      );
    }
    res.locals.idempotency = { scope, key };
    const json = res.json.bind(res);
    let stored = false;
    res.json = (body: unknown) => {
      if (stored) return json(body);
      stored = true;
      const status = res.statusCode;
      // A 5xx, or an answer for now only (a 409 while another capture of the order is pending):
      // the same request may do its work later.
      const settle =
        status >= 500 || res.locals.answerForNow === true
          ? ctx.store.idempotency.abandon(scope, key)
          : ctx.store.idempotency
              .complete(scope, key, { status, body: kept(spec.secretField, body) })
              .then(() => undefined);
      settle.then(
        () => json(body),
        (error: unknown) => {
          ctx.logger.error({ err: error }, 'idempotency record failed');
          json(body);
        },
      );
      return res;
    };
    next();
  };
}
