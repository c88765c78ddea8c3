/**
 * Every gateway operation as data: path template, signing scheme and (for scheme A) whose control
 * formula signs it. The client derives one method per row; nothing else knows a path.
 */
import type { ControlOperation } from '../signing/index.js';
import type {
  CreateCardRefRequest,
  CreateCardRefV4Request,
  GetCardInfoRequest,
  MakeRebillRequest,
} from './types/card-ref-requests.js';
import type {
  CaptureRequest,
  ReturnRequest,
  StatusRequest,
  VoidRequest,
} from './types/order-requests.js';
import type {
  AccountVerificationFormRequest,
  AccountVerificationRequest,
  PaymentFormRequest,
  PreauthFormRequest,
  PreauthRequest,
  SaleFormRequest,
  SaleRequest,
} from './types/payment-requests.js';
import type {
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
import type {
  AsyncResponse,
  CardInfoResponse,
  CardRefResponse,
  FormRedirectResponse,
  GatewayResult,
  PayoutResponse,
  RecurringPaymentResponse,
  StatusResponse,
  TransferResponse,
} from './types/results.js';
import type {
  UploadCresResultRequest,
  UploadMethodUrlResultRequest,
  UploadParesResultRequest,
} from './types/three-ds-requests.js';

/** A: `control` field (SHA-1); B: OAuth HMAC-SHA1; C: OAuth RSA-SHA256. */
export type SigningScheme = 'control' | 'HMAC-SHA1' | 'RSA-SHA256';

export interface OperationDefinition {
  /** The gateway's name for it (used in errors and exchange records). */
  readonly name: string;
  /** Appended to the configured gateway URL; `{endpointId}` is replaced. */
  readonly path: string;
  readonly scheme: SigningScheme;
  /** Scheme A: the formula in signing's CONTROL_INPUTS. */
  readonly control?: ControlOperation;
  /**
   * Read-only: may be retried after a transport error or 5xx. Nothing that moves money is,
   * because a lost answer does not mean the gateway did nothing.
   */
  readonly readOnly?: boolean;
  /** Normalised result fields a successful answer must carry. */
  readonly requires?: readonly (keyof GatewayResult)[];
}

const FORM = ['redirectUrl'] as const;

export const OPERATIONS = {
  uploadMethodUrlResult: {
    name: 'upload-method-url-result',
    path: '/api/3ds/v1/upload-method-url-result/{endpointId}',
    scheme: 'control',
    control: 'upload-method-url-result',
  },
  uploadCresResult: {
    name: 'upload-cres-result',
    path: '/api/3ds/v1/upload-cres-result/{endpointId}',
    scheme: 'control',
    control: 'upload-cres-result',
  },
  uploadParesResult: {
    name: 'upload-pares-result',
    path: '/api/3ds/v1/upload-pares-result/{endpointId}',
    scheme: 'control',
    control: 'upload-pares-result',
  },
  sale: { name: 'sale', path: '/api/v2/sale/{endpointId}', scheme: 'control', control: 'sale' },
  saleForm: {
    name: 'sale-form',
    path: '/api/v2/sale-form/{endpointId}',
    scheme: 'control',
    control: 'sale-form',
    requires: FORM,
  },
  preauth: {
    name: 'preauth',
    path: '/api/v2/preauth/{endpointId}',
    scheme: 'control',
    control: 'preauth',
  },
  preauthForm: {
    name: 'preauth-form',
    path: '/api/v2/preauth-form/{endpointId}',
    scheme: 'control',
    control: 'preauth-form',
    requires: FORM,
  },
  // The spec states no control for payment-form. It is a hosted form like sale-form with the
  // same order fields, so it is signed with sale-form's formula
  // (endpointId + client_orderid + amount + email), the gateway family's form signature.
  paymentForm: {
    name: 'payment-form',
    path: '/api/v2/payment-form/{endpointId}',
    scheme: 'control',
    control: 'sale-form',
    requires: FORM,
  },
  capture: {
    name: 'capture',
    path: '/api/v2/capture/{endpointId}',
    scheme: 'control',
    control: 'capture',
  },
  voidTransaction: {
    name: 'void',
    path: '/api/v2/void/{endpointId}',
    scheme: 'control',
    control: 'void',
  },
  returnTransaction: {
    name: 'return',
    path: '/api/v2/return/{endpointId}',
    scheme: 'control',
    control: 'return',
  },
  status: {
    name: 'status',
    path: '/api/v2/status/{endpointId}',
    scheme: 'control',
    control: 'status',
    readOnly: true,
    requires: ['status'],
  },
  accountVerification: {
    name: 'account-verification',
    path: '/api/v2/account-verification/{endpointId}',
    scheme: 'control',
    control: 'account-verification',
  },
  accountVerificationForm: {
    name: 'account-verification-form',
    path: '/api/v2/account-verification-form/{endpointId}',
    scheme: 'control',
    control: 'account-verification-form',
    requires: FORM,
  },
  createCardRef: {
    name: 'create-card-ref',
    path: '/api/v2/create-card-ref/{endpointId}',
    scheme: 'control',
    control: 'create-card-ref',
  },
  createCardRefV4: {
    name: 'create-card-ref-v4',
    path: '/api/v4/create-card-ref/{endpointId}',
    scheme: 'RSA-SHA256',
  },
  // The spec states no control for get-card-info; the family's php-lib gives login + cardrefid
  // (docs/gateway.md#control-values).
  getCardInfo: {
    name: 'get-card-info',
    path: '/api/v2/get-card-info/{endpointId}',
    scheme: 'control',
    control: 'get-card-info',
    readOnly: true,
  },
  makeRebill: {
    name: 'make-rebill',
    path: '/api/v2/make-rebill/{endpointId}',
    scheme: 'control',
    control: 'make-rebill',
  },
  createRecurringPayment: {
    name: 'create-recurring-payment',
    path: '/api/v4/create-recurring-payment/{endpointId}',
    scheme: 'RSA-SHA256',
  },
  // The spec's payout prose says the oauth_* values are not in the body, but its scheme B rule 10
  // and the gateway family repeat them there; the signer follows the latter for HMAC-SHA1.
  payout: { name: 'payout', path: '/api/v2/payout/{endpointId}', scheme: 'HMAC-SHA1' },
  // No control stated for payout-form either: signed like sale-form, as payment-form is.
  payoutForm: {
    name: 'payout-form',
    path: '/api/v2/payout-form/{endpointId}',
    scheme: 'control',
    control: 'sale-form',
    requires: FORM,
  },
  payoutCheck: {
    name: 'payout-check',
    path: '/api/v4/payout-check/{endpointId}',
    scheme: 'RSA-SHA256',
  },
  payoutPay: {
    name: 'payout-pay',
    path: '/api/v4/payout-pay/{endpointId}',
    scheme: 'RSA-SHA256',
  },
  panEligibilitySend: {
    name: 'pan-eligibility-send',
    path: '/api/v2/pan-eligibility/send/{endpointId}',
    scheme: 'HMAC-SHA1',
  },
  transfer: { name: 'transfer', path: '/api/v4/transfer/{endpointId}', scheme: 'RSA-SHA256' },
  transferByRef: {
    name: 'transfer-by-ref',
    path: '/api/v4/transfer-by-ref/{endpointId}',
    scheme: 'RSA-SHA256',
  },
  payoutV4: { name: 'payout-v4', path: '/api/v4/payout/{endpointId}', scheme: 'RSA-SHA256' },
} as const satisfies Record<string, OperationDefinition>;

export type OperationMethod = keyof typeof OPERATIONS;

/** Request and result type of each operation. */
export interface OperationTypes {
  uploadMethodUrlResult: [UploadMethodUrlResultRequest, AsyncResponse];
  uploadCresResult: [UploadCresResultRequest, AsyncResponse];
  uploadParesResult: [UploadParesResultRequest, AsyncResponse];
  sale: [SaleRequest, AsyncResponse];
  saleForm: [SaleFormRequest, FormRedirectResponse];
  preauth: [PreauthRequest, AsyncResponse];
  preauthForm: [PreauthFormRequest, FormRedirectResponse];
  paymentForm: [PaymentFormRequest, FormRedirectResponse];
  capture: [CaptureRequest, AsyncResponse];
  voidTransaction: [VoidRequest, AsyncResponse];
  returnTransaction: [ReturnRequest, AsyncResponse];
  status: [StatusRequest, StatusResponse];
  accountVerification: [AccountVerificationRequest, AsyncResponse];
  accountVerificationForm: [AccountVerificationFormRequest, FormRedirectResponse];
  createCardRef: [CreateCardRefRequest, CardRefResponse];
  createCardRefV4: [CreateCardRefV4Request, CardRefResponse];
  getCardInfo: [GetCardInfoRequest, CardInfoResponse];
  makeRebill: [MakeRebillRequest, AsyncResponse];
  createRecurringPayment: [CreateRecurringPaymentRequest, RecurringPaymentResponse];
  payout: [PayoutRequest, PayoutResponse];
  payoutForm: [PayoutFormRequest, FormRedirectResponse];
  payoutCheck: [PayoutCheckRequest, PayoutResponse];
  payoutPay: [PayoutPayRequest, PayoutResponse];
  panEligibilitySend: [PanEligibilitySendRequest, AsyncResponse];
  transfer: [TransferRequest, TransferResponse];
  transferByRef: [TransferByRefRequest, TransferResponse];
  payoutV4: [PayoutV4Request, PayoutResponse];
}

export type OperationRequest<M extends OperationMethod> = OperationTypes[M][0];
export type OperationResult<M extends OperationMethod> = OperationTypes[M][1];

/** Every table row must have types, and every typed operation a row. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _tableMatchesTypes: Same<OperationMethod, keyof OperationTypes> = true;
void _tableMatchesTypes;
