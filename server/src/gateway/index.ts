/** The typed gateway client: one method per gateway operation, typed errors, no secrets out. */
export {
  createGatewayClient,
  DEFAULT_RETRIES,
  DEFAULT_RETRY_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  type GatewayClient,
  type GatewayClientConfig,
  type GatewayExchange,
} from './client.js';
export {
  GatewayConfigError,
  GatewayError,
  type GatewayErrorCode,
  type GatewayErrorDetails,
  GatewayServerError,
  GatewaySignatureError,
  GatewayTimeoutError,
  GatewayTransportError,
  GatewayUnexpectedBodyError,
  GatewayValidationError,
} from './errors.js';
export {
  OPERATIONS,
  type OperationDefinition,
  type OperationMethod,
  type OperationRequest,
  type OperationResult,
  type OperationTypes,
  type SigningScheme,
} from './operations.js';
export { normalizeResult, parseBody } from './response.js';
export { isSensitiveField, redactText, sanitizeFields } from './sanitize.js';
export { encodeForm, type FetchLike, type FetchResponseLike, JSON_ACCEPT } from './transport.js';
export type {
  CreateCardRefRequest,
  CreateCardRefV4Request,
  GetCardInfoRequest,
  MakeRebillRequest,
} from './types/card-ref-requests.js';
export type { CurrencyCode, DecimalAmount, RequestBase, WireValue } from './types/common.js';
export type {
  CaptureRequest,
  ReturnRequest,
  StatusRequest,
  VoidRequest,
} from './types/order-requests.js';
export type {
  AccountVerificationFormRequest,
  AccountVerificationRequest,
  CardFields,
  CustomerFields,
  OrderFields,
  PaymentFormRequest,
  PreauthFormRequest,
  PreauthRequest,
  SaleFormRequest,
  SaleRequest,
} from './types/payment-requests.js';
export type {
  CreateRecurringPaymentRequest,
  PanEligibilitySendRequest,
  PayoutCheckRequest,
  PayoutFormRequest,
  PayoutPayRequest,
  PayoutRequest,
  PayoutV4Request,
  TransferByRefRequest,
  TransferRequest,
} from './types/payout-requests.js';
export type {
  AsyncResponse,
  CardInfoResponse,
  CardRefResponse,
  CardSummary,
  FormRedirectResponse,
  GatewayResult,
  PayoutResponse,
  RecurringPaymentResponse,
  StatusResponse,
  ThreeDSInstructions,
  TransferResponse,
} from './types/results.js';
export type {
  UploadCresResultRequest,
  UploadMethodUrlResultRequest,
  UploadParesResultRequest,
} from './types/three-ds-requests.js';
