/**
 * One gateway operation, checked like the real gateway: POST only (405), the exact JSON Accept
 * header, a form body, a known endpoint (or endpoint group), OAuth HMAC-SHA1 / RSA-SHA256 (403),
 * then the operation's field contract (operations/contract.ts: the one spelling of the order id,
 * the required fields; 400 naming the field), then the control (400 naming control). Operation handlers parse
 * their fields first and then call `call.checkControl`, so a malformed amount is reported as the
 * amount, not as a wrong control; the router refuses to answer for a control operation whose
 * handler forgot to check it.
 */
import type { Request, RequestHandler, Response } from 'express';
import {
  type ControlOperation,
  type ControlValues,
  controlNeedsLogin,
  verifyControl,
  verifyOAuthRequest,
} from '../../signing/index.js';
import type { Sandbox } from '../context.js';
import type { Merchant } from '../merchants.js';
import { contractOf, type FieldContract, otherSpelling } from '../operations/contract.js';
import { forbidden, invalidField, missingField, refused, SandboxError } from './errors.js';
import { Fields, parseForm } from './fields.js';
import { PAY_JSON, type PayBody, sendPay, sendServerError } from './respond.js';

export type AuthScheme = 'control' | 'HMAC-SHA1' | 'RSA-SHA256';

export interface Call {
  sandbox: Sandbox;
  /** The merchant's endpoint id (a group id in the path is mapped to it). */
  endpointId: string;
  fields: Fields;
  /** What the operation demands of the request (already enforced when the handler runs). */
  contract: FieldContract;
  /** Public base URL including the path prefix: `http://127.0.0.1:4000/paynet`. */
  baseUrl: string;
  /** Verifies the control value of `operation`; throws 400 naming the field at fault. */
  checkControl(operation: ControlOperation, values: ControlValues): void;
}

export interface OperationDef {
  /** Path under the base, without the endpoint: `api/v2/sale`. */
  path: string;
  auth: AuthScheme;
  /** Whether `/{path}/group/{groupId}` is accepted too. */
  group?: boolean;
  handle(call: Call): Promise<PayBody>;
}

const NONCE_WINDOW_MS = 600_000;

export function publicBase(sandbox: Sandbox, req: Request): string {
  const origin = sandbox.publicOrigin ?? `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
  return `${origin}${sandbox.basePath}`;
}

export function operationHandler(sandbox: Sandbox, def: OperationDef): RequestHandler {
  // At start-up: an operation without a contract is a programming error, not a 500 later.
  const contract = contractOf(def.path);
  return async (req: Request, res: Response) => {
    if (req.method !== 'POST') {
      res.set('Allow', 'POST');
      sendPay(res, 405, {
        type: 'validation-error',
        'error-code': 'method-not-allowed',
        'error-message': `${req.method} is not allowed: every gateway operation is POST`,
      });
      return;
    }
    if (req.get('accept') !== PAY_JSON) {
      throw new SandboxError(
        400,
        'invalid-accept',
        `Accept: the header must be exactly ${PAY_JSON}`,
        'Accept',
      );
    }
    if (!req.is('application/x-www-form-urlencoded')) {
      throw new SandboxError(
        400,
        'invalid-content-type',
        'Content-Type: the body must be application/x-www-form-urlencoded',
        'Content-Type',
      );
    }
    const params = req.params as Record<string, string | undefined>;
    const pathId = params.groupId ?? params.endpointId ?? '';
    if (!/^\d{1,18}$/.test(pathId)) {
      throw invalidField('endpointId', 'must be an integer');
    }
    const merchant =
      params.groupId !== undefined
        ? sandbox.merchants.byGroup(pathId)
        : (sandbox.merchants.byEndpoint(pathId) ??
          (contract.groupInEndpointSlot ? sandbox.merchants.byGroup(pathId) : undefined));
    if (!merchant) {
      throw refused('unknown-endpoint', `endpoint ${pathId} is not known to this gateway`);
    }
    const faults = sandbox.faults.settingsFor(
      merchant.endpointId,
      sandbox.devMode ? req.get('x-sandbox-fault') : undefined,
    );
    if (faults.latencyMs) await new Promise((r) => setTimeout(r, faults.latencyMs));
    if (sandbox.faults.roll(faults.errorRate)) {
      sendServerError(res, 'Internal server error (sandbox fault injection)');
      return;
    }
    const raw = parseForm(typeof req.body === 'string' ? req.body : '');
    if (def.auth === 'HMAC-SHA1' || def.auth === 'RSA-SHA256') {
      await verifyOAuth(sandbox, req, def.auth, merchant, raw);
    }
    const fields = new Fields(raw);
    enforceContract(fields, contract);
    let checked = false;
    const call: Call = {
      sandbox,
      endpointId: merchant.endpointId,
      fields,
      contract,
      baseUrl: publicBase(sandbox, req),
      checkControl(operation, values) {
        if (controlNeedsLogin(operation)) {
          const login = fields.required('login');
          if (login !== merchant.login) {
            throw invalidField('login', 'is not the login of this endpoint');
          }
        }
        const control = fields.get('control');
        if (!control) throw missingField('control');
        const ok = verifyControl(
          operation,
          // The id as it appeared in the path (endpoint or group) is what the control signs.
          { endpointId: pathId, login: merchant.login, ...values },
          merchant.controlKey,
          control,
        );
        if (!ok) {
          throw new SandboxError(
            400,
            'invalid-control',
            'control: does not match the SHA-1 of the signed fields and the control key',
            'control',
          );
        }
        checked = true;
      },
    };
    if (def.auth !== 'control') checked = true;
    const body = await def.handle(call);
    if (!checked) throw new Error(`operation ${def.path} answered without checking its control`);
    if (sandbox.faults.roll(faults.dropRate)) {
      // The state change is committed; the merchant never hears about it.
      req.socket.destroy();
      return;
    }
    sendPay(res, 200, body);
  };
}

/** The order id in the operation's one spelling, and every required field, or a 400 naming it. */
function enforceContract(fields: Fields, contract: FieldContract): void {
  if (contract.orderId) {
    const wrong = otherSpelling(contract.orderId);
    fields.forbid(wrong, `this operation names the merchant order id ${contract.orderId}`);
  }
  for (const name of contract.required) fields.required(name);
}

async function verifyOAuth(
  sandbox: Sandbox,
  req: Request,
  method: 'HMAC-SHA1' | 'RSA-SHA256',
  merchant: Merchant,
  body: readonly (readonly [string, string])[],
): Promise<void> {
  if (method === 'RSA-SHA256' && !merchant.publicKey) {
    throw forbidden('OAuth: no RSA public key is registered for this endpoint');
  }
  // The URL the client addressed: scheme, Host header, original path and query.
  const url = `${req.protocol}://${req.get('host') ?? ''}${req.originalUrl}`;
  const result = verifyOAuthRequest(
    { method: 'POST', url, authorization: req.get('authorization'), body },
    {
      expectedMethod: method,
      now: Math.floor(sandbox.clock.now() / 1000),
      // Only this endpoint's merchant can sign for it: another merchant's login is unknown here.
      lookup: (login) =>
        login !== merchant.login
          ? undefined
          : method === 'HMAC-SHA1'
            ? { controlKey: merchant.controlKey }
            : { publicKey: merchant.publicKey },
    },
  );
  if (!result.ok) {
    throw forbidden(
      result.reason === 'unknown-consumer'
        ? 'OAuth: oauth_consumer_key is not the login of this endpoint'
        : `OAuth: ${result.message}`,
    );
  }
  const fresh = await sandbox.store.useNonce(
    result.consumerKey,
    result.nonce,
    sandbox.clock.now(),
    NONCE_WINDOW_MS,
  );
  if (!fresh) throw forbidden('OAuth: oauth_nonce was already used');
}
