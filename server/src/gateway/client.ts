/**
 * The gateway client: one method per row of the operations table. Each call builds the form
 * fields, signs them with the row's scheme, POSTs them, and returns the normalised result or
 * throws a typed GatewayError. Secrets stay inside: errors and exchange records never carry
 * them.
 */
import { randomUUID } from 'node:crypto';
import {
  type ControlOperation,
  computeControl,
  controlNeedsLogin,
  createOAuthSigner,
  type OAuthSigner,
  type Param,
} from '../signing/index.js';
import { classifyAnswer } from './classify.js';
import { GatewayConfigError, GatewayError } from './errors.js';
import { httpPost } from './http-post.js';
import {
  OPERATIONS,
  type OperationDefinition,
  type OperationMethod,
  type OperationRequest,
  type OperationResult,
} from './operations.js';
import { redactText, sanitizeFields, sensitiveValues } from './sanitize.js';
import { type FetchLike, postForm } from './transport.js';
import type { WireValue } from './types/common.js';
import type { GatewayResult } from './types/results.js';

/** One HTTP exchange, as the backend may record it. Safe to store: no secrets, no card data. */
export interface GatewayExchange {
  operation: string;
  method: OperationMethod;
  requestId: string;
  /** 1 for the first try; read-only operations may take more. */
  attempt: number;
  /** The sent fields without card number, CVV, expiry, control, signature or keys. */
  requestFields: Record<string, string>;
  /** The parsed answer, when there was one (PAN-like values redacted in `raw`). */
  response?: GatewayResult | undefined;
  httpStatus?: number | undefined;
  durationMs: number;
  error?: { code: string; message: string } | undefined;
}

export interface GatewayClientConfig {
  /** Includes the path prefix, e.g. http://127.0.0.1:4000/paynet. */
  gatewayUrl: string;
  endpointId: string | number;
  login: string;
  controlKey: string;
  /** PKCS#1 or PKCS#8 PEM, RSA >= 2048 bits; needed only for the /api/v4 operations. */
  privateKeyPem?: string | undefined;
  /** Per attempt; default 30 000. */
  timeoutMs?: number | undefined;
  fetch?: FetchLike | undefined;
  /** OAuth timestamp source, seconds since the epoch. */
  clock?: (() => number) | undefined;
  /** OAuth nonce source. */
  nonce?: (() => string) | undefined;
  /** Request id source (sent as X-Request-Id); default a random UUID. */
  requestId?: (() => string) | undefined;
  /** Extra attempts of read-only operations after a transport error or 5xx; default 2. */
  retries?: number | undefined;
  /** First retry delay, doubled each time; default 200 ms. */
  retryDelayMs?: number | undefined;
  /** Called after every attempt (awaited; its failures are ignored). */
  onExchange?: ((exchange: GatewayExchange) => void | Promise<void>) | undefined;
}

export type GatewayClient = {
  readonly [M in OperationMethod]: (request: OperationRequest<M>) => Promise<OperationResult<M>>;
};

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 2;
export const DEFAULT_RETRY_DELAY_MS = 200;

export function createGatewayClient(config: GatewayClientConfig): GatewayClient {
  const settings = validateConfig(config);
  const { login, controlKey } = config;
  const oauthOptions = { consumerKey: login, clock: config.clock, nonce: config.nonce };
  const signers: Partial<Record<'HMAC-SHA1' | 'RSA-SHA256', OAuthSigner>> = {
    'HMAC-SHA1': createOAuthSigner({
      ...withoutUndefined(oauthOptions),
      method: 'HMAC-SHA1',
      controlKey,
    }),
  };
  if (config.privateKeyPem !== undefined) {
    // The signer refuses keys that are not RSA or are under 2048 bits (a SigningError).
    signers['RSA-SHA256'] = createOAuthSigner({
      ...withoutUndefined(oauthOptions),
      method: 'RSA-SHA256',
      privateKeyPem: config.privateKeyPem,
    });
  }
  const fetchImpl: FetchLike = config.fetch ?? httpPost;
  const newRequestId = config.requestId ?? randomUUID;

  async function call(method: OperationMethod, request: object): Promise<GatewayResult> {
    const definition: OperationDefinition = OPERATIONS[method];
    const url = `${settings.gatewayUrl}${definition.path.replace('{endpointId}', encodeURIComponent(settings.endpointId))}`;
    const fields = toParams(request);
    let body: Param[];
    let authorization: string | undefined;
    if (definition.scheme === 'control') {
      const controlOperation = definition.control as ControlOperation;
      const withLogin = controlNeedsLogin(controlOperation)
        ? withField(fields, 'login', login)
        : fields;
      const control = computeControl(
        controlOperation,
        controlValues(withLogin, settings.endpointId),
        controlKey,
      );
      body = [...withLogin, ['control', control]];
    } else {
      const signer = signers[definition.scheme];
      if (!signer) {
        throw new GatewayConfigError(
          `${definition.name} is signed with RSA-SHA256 and no privateKeyPem is configured`,
          definition.name,
        );
      }
      const signed = signer.sign({ url, params: fields });
      body = signed.body;
      authorization = signed.authorization;
    }
    const secrets = [
      ...sensitiveValues(body),
      controlKey,
      ...(config.privateKeyPem ? [config.privateKeyPem] : []),
    ];
    const requestId = newRequestId();
    const requestFields = sanitizeFields(body.filter(([name]) => !name.startsWith('oauth_')));
    const attempts = definition.readOnly ? settings.retries + 1 : 1;

    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      const record = async (part: Partial<GatewayExchange>) => {
        await report({
          operation: definition.name,
          method,
          requestId,
          attempt,
          requestFields,
          durationMs: Math.round(performance.now() - started),
          ...part,
        });
      };
      let failure: GatewayError;
      try {
        const answer = await postForm(fetchImpl, {
          url,
          body,
          authorization,
          requestId,
          timeoutMs: settings.timeoutMs,
          operation: definition.name,
          secrets,
        });
        const outcome = classifyAnswer(definition, answer, requestId, secrets);
        await record({
          httpStatus: answer.httpStatus,
          response: outcome.result && redactResult(outcome.result, secrets),
          error: outcome.ok
            ? undefined
            : { code: outcome.error.code, message: outcome.error.message },
        });
        if (outcome.ok) return outcome.result;
        failure = outcome.error;
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error;
        if (error.code === 'gateway-timeout' || error.code === 'gateway-transport') {
          await record({ error: { code: error.code, message: error.message } });
        }
        failure = error;
      }
      const retryable =
        failure.code === 'gateway-transport' ||
        (failure.code === 'gateway-server' && (failure.httpStatus ?? 0) >= 500);
      if (!retryable || attempt >= attempts) throw failure;
      await sleep(settings.retryDelayMs * 2 ** (attempt - 1));
    }
  }

  async function report(exchange: GatewayExchange): Promise<void> {
    if (!config.onExchange) return;
    try {
      await config.onExchange(exchange);
    } catch {
      // A failing history writer must not turn a completed payment call into an error.
    }
  }

  const client: Record<string, (request: object) => Promise<GatewayResult>> = {};
  for (const method of Object.keys(OPERATIONS) as OperationMethod[]) {
    client[method] = (request) => call(method, request);
  }
  return Object.freeze(client) as unknown as GatewayClient;
}

interface Settings {
  gatewayUrl: string;
  endpointId: string;
  timeoutMs: number;
  retries: number;
  retryDelayMs: number;
}

function validateConfig(config: GatewayClientConfig): Settings {
  const required = ['gatewayUrl', 'login', 'controlKey'] as const;
  for (const name of required) {
    if (typeof config[name] !== 'string' || config[name].trim() === '') {
      throw new GatewayConfigError(`gateway client: ${name} is empty`);
    }
  }
  const endpointId = String(config.endpointId ?? '').trim();
  if (!/^\d+$/.test(endpointId)) {
    throw new GatewayConfigError('gateway client: endpointId must be a positive integer');
  }
  let parsed: URL;
  try {
    parsed = new URL(config.gatewayUrl);
  } catch {
    throw new GatewayConfigError('gateway client: gatewayUrl is not a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new GatewayConfigError('gateway client: gatewayUrl must be http(s)');
  }
  if (config.privateKeyPem !== undefined && config.privateKeyPem.trim() === '') {
    throw new GatewayConfigError('gateway client: privateKeyPem is empty');
  }
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = config.retries ?? DEFAULT_RETRIES;
  const retryDelayMs = config.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  if (!(timeoutMs > 0)) throw new GatewayConfigError('gateway client: timeoutMs must be > 0');
  if (!Number.isInteger(retries) || retries < 0) {
    throw new GatewayConfigError('gateway client: retries must be a whole number >= 0');
  }
  if (!(retryDelayMs >= 0))
    throw new GatewayConfigError('gateway client: retryDelayMs must be >= 0');
  return {
    gatewayUrl: config.gatewayUrl.replace(/\/+$/, ''),
    endpointId,
    timeoutMs,
    retries,
    retryDelayMs,
  };
}

/** Typed fields first (undefined skipped), then `extra` fields the types do not name. */
export function toParams(request: object): Param[] {
  const params: Param[] = [];
  const { extra, ...typed } = request as { extra?: Record<string, string> } & Record<
    string,
    unknown
  >;
  for (const [name, value] of Object.entries(typed)) {
    if (value === undefined || value === null) continue;
    params.push([name, wireText(value as WireValue)]);
  }
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (value === undefined || Object.hasOwn(typed, name)) continue;
    params.push([name, String(value)]);
  }
  return params;
}

function wireText(value: WireValue): string {
  return typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value);
}

function withField(fields: readonly Param[], name: string, value: string): Param[] {
  return fields.some(([n]) => n === name) ? [...fields] : [[name, value], ...fields];
}

/** The control inputs come from the sent fields; the 3DS uploads spell the id `client-order-id`. */
function controlValues(fields: readonly Param[], endpointId: string) {
  const get = (name: string) => fields.find(([n]) => n === name)?.[1];
  return {
    endpointId,
    login: get('login'),
    client_orderid: get('client_orderid') ?? get('client-order-id'),
    orderid: get('orderid'),
    amount: get('amount'),
    currency: get('currency'),
    email: get('email'),
    cardrefid: get('cardrefid'),
  };
}

/** Every string of the result, `raw` included, with PAN-like runs and the secrets removed. */
function redactResult(result: GatewayResult, secrets: readonly string[]): GatewayResult {
  const redact = (value: unknown): unknown => {
    if (typeof value === 'string') return redactText(value, secrets);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, redact(v)]));
  };
  return redact(result) as GatewayResult;
}

function withoutUndefined<T extends object>(
  value: T,
): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
