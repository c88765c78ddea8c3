/**
 * Turns an HTTP answer into a normalised result or a typed error. With the JSON Accept header
 * the gateway answers a refused request with a 4xx and a JSON body, so the body is read
 * whatever the status.
 */
import {
  type GatewayError,
  type GatewayErrorDetails,
  GatewayServerError,
  GatewaySignatureError,
  GatewayUnexpectedBodyError,
  GatewayValidationError,
} from './errors.js';
import type { OperationDefinition } from './operations.js';
import { normalizeResult, parseBody } from './response.js';
import { redactText } from './sanitize.js';
import type { HttpAnswer } from './transport.js';
import type { GatewayResult } from './types/results.js';

export type Classified =
  | { ok: true; result: GatewayResult }
  | { ok: false; error: GatewayError; result?: GatewayResult | undefined };

export function classifyAnswer(
  definition: OperationDefinition,
  answer: HttpAnswer,
  requestId: string,
  secrets: readonly string[],
): Classified {
  const operation = definition.name;
  const raw = parseBody(answer.bodyText);
  const result = raw ? normalizeResult(raw, requestId) : undefined;
  const clean = (text: string | undefined) =>
    text === undefined ? undefined : redactText(text, secrets);
  const details: GatewayErrorDetails = {
    operation,
    requestId,
    httpStatus: answer.httpStatus,
    errorCode: clean(result?.errorCode),
    errorMessage: clean(result?.errorMessage),
    serialNumber: result?.serialNumber,
    responseType: result?.type || undefined,
    orderId: result?.orderId,
    clientOrderId: result?.clientOrderId,
  };
  const http = `HTTP ${answer.httpStatus}`;
  const said = describe(details);
  const fail = (error: GatewayError): Classified => ({ ok: false, error, result });
  const status = answer.httpStatus;

  if (status >= 500) {
    return fail(
      new GatewayServerError(`${operation}: gateway server error (${http})${said}`, details),
    );
  }
  if (status === 401 || status === 403) {
    return fail(
      new GatewaySignatureError(
        `${operation}: the gateway refused the signature (${http})${said}`,
        details,
      ),
    );
  }
  if (status === 400 || (status > 400 && status < 500 && result)) {
    return fail(
      new GatewayValidationError(
        `${operation}: the gateway refused the request (${http})${said}`,
        details,
      ),
    );
  }
  if (!result || status < 200 || status >= 300) {
    return fail(
      new GatewayUnexpectedBodyError(
        `${operation}: the gateway's answer (${http}, ${answer.contentType || 'no content type'}) is not a gateway response`,
        details,
      ),
    );
  }
  if (result.type === 'validation-error') {
    return fail(
      new GatewayValidationError(
        `${operation}: the gateway refused the request (validation-error)${said}`,
        details,
      ),
    );
  }
  if (result.type === 'error') {
    return fail(
      new GatewayServerError(`${operation}: the gateway reported an error${said}`, details),
    );
  }
  const missing = ['type' as const, ...(definition.requires ?? [])].filter((key) => !result[key]);
  if (missing.length > 0) {
    return fail(
      new GatewayUnexpectedBodyError(
        `${operation}: the gateway's answer lacks ${missing.join(', ')}`,
        details,
      ),
    );
  }
  return { ok: true, result };
}

function describe(details: GatewayErrorDetails): string {
  const parts: string[] = [];
  if (details.errorCode) parts.push(`error-code ${details.errorCode}`);
  if (details.errorMessage) parts.push(details.errorMessage);
  return parts.length > 0 ? `: ${parts.join(': ')}` : '';
}
