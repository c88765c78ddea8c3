/**
 * Typed gateway errors. Each has a stable `code` and carries what an operator needs to find the
 * exchange again (operation, HTTP status, our request id, the gateway's serial number and error
 * fields) and nothing else: no request fields, so never a card number, CVV, control value or key.
 */
import { PayCheckoutError } from '../errors.js';

export type GatewayErrorCode =
  | 'gateway-config'
  | 'gateway-validation'
  | 'gateway-signature'
  | 'gateway-server'
  | 'gateway-timeout'
  | 'gateway-transport'
  | 'gateway-unexpected-body';

/** What is known about the failed exchange. Every value here is safe to log. */
export interface GatewayErrorDetails {
  operation: string;
  requestId: string;
  httpStatus?: number | undefined;
  errorCode?: string | undefined;
  errorMessage?: string | undefined;
  serialNumber?: string | undefined;
  /** The gateway's response `type`, when a body was read. */
  responseType?: string | undefined;
  orderId?: string | undefined;
  clientOrderId?: string | undefined;
  /** A summary of a low-level cause (name, code, message); never the original object. */
  causeSummary?: string | undefined;
}

export class GatewayError extends PayCheckoutError {
  declare readonly code: GatewayErrorCode;
  readonly operation: string;
  readonly requestId: string;
  readonly httpStatus: number | undefined;
  readonly errorCode: string | undefined;
  readonly errorMessage: string | undefined;
  readonly serialNumber: string | undefined;
  readonly responseType: string | undefined;
  readonly orderId: string | undefined;
  readonly clientOrderId: string | undefined;
  readonly causeSummary: string | undefined;

  constructor(code: GatewayErrorCode, message: string, details: GatewayErrorDetails) {
    super(code, message);
    this.operation = details.operation;
    this.requestId = details.requestId;
    this.httpStatus = details.httpStatus;
    this.errorCode = details.errorCode;
    this.errorMessage = details.errorMessage;
    this.serialNumber = details.serialNumber;
    this.responseType = details.responseType;
    this.orderId = details.orderId;
    this.clientOrderId = details.clientOrderId;
    this.causeSummary = details.causeSummary;
  }

  /** JSON.stringify would otherwise drop `name` and `message` (not own enumerable on Error). */
  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message, ...this.details() };
  }

  private details(): GatewayErrorDetails {
    return {
      operation: this.operation,
      requestId: this.requestId,
      httpStatus: this.httpStatus,
      errorCode: this.errorCode,
      errorMessage: this.errorMessage,
      serialNumber: this.serialNumber,
      responseType: this.responseType,
      orderId: this.orderId,
      clientOrderId: this.clientOrderId,
      causeSummary: this.causeSummary,
    };
  }
}

/** The client cannot be built or an operation cannot be called with this configuration. */
export class GatewayConfigError extends GatewayError {
  constructor(message: string, operation = 'config') {
    super('gateway-config', message, { operation, requestId: '' });
  }
}

/** 400 (or any 4xx but 401/403), or a `validation-error` response: the request was refused. */
export class GatewayValidationError extends GatewayError {
  constructor(message: string, details: GatewayErrorDetails) {
    super('gateway-validation', message, details);
  }
}

/** 401/403: the control value or OAuth signature was not accepted. */
export class GatewaySignatureError extends GatewayError {
  constructor(message: string, details: GatewayErrorDetails) {
    super('gateway-signature', message, details);
  }
}

/** 5xx, or a response of type `error`. */
export class GatewayServerError extends GatewayError {
  constructor(message: string, details: GatewayErrorDetails) {
    super('gateway-server', message, details);
  }
}

/** No complete answer within the timeout. For a money-moving call the outcome is unknown. */
export class GatewayTimeoutError extends GatewayError {
  constructor(message: string, details: GatewayErrorDetails) {
    super('gateway-timeout', message, details);
  }
}

/** The connection failed (refused, reset, DNS). */
export class GatewayTransportError extends GatewayError {
  constructor(message: string, details: GatewayErrorDetails) {
    super('gateway-transport', message, details);
  }
}

/** A body that is neither JSON nor form-encoded, or lacks what the operation must return. */
export class GatewayUnexpectedBodyError extends GatewayError {
  constructor(message: string, details: GatewayErrorDetails) {
    super('gateway-unexpected-body', message, details);
  }
}
