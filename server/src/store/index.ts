/**
 * The store's public API: the companion backend (and the sandbox, for `openDatabase`/`migrate`)
 * import from here only.
 */
export {
  type CallbackRepository,
  createCallbackRepository,
  type GatewayCallback,
  type ReceivedCallback,
} from './callbacks.js';
export {
  type CardRefRepository,
  createCardRefRepository,
  type NewCardRef,
  type StoredCardRef,
} from './card-refs.js';
export {
  type CheckoutRepositories,
  type CheckoutStore,
  createCheckoutStore,
  migrateCheckoutStore,
  openCheckoutStore,
} from './checkout-store.js';
export {
  type ClientOrderIdHolder,
  ClientOrderIdTakenError,
} from './client-order-ids.js';
export {
  type DatabaseOptions,
  type Migration,
  migrate,
  openDatabase,
  openSharedPGlite,
} from './engine/database.js';
export type { SharedPGlite } from './engine/shared-pglite.js';
export type { Database, Queryable, QueryResult } from './engine/types.js';
export {
  CardRefNotHeldError,
  StoreError,
  type StoreErrorCode,
  UniqueViolationError,
} from './errors.js';
export {
  createHistoryRepository,
  type GatewayExchange,
  type HistoryEntry,
  type HistoryRepository,
} from './history.js';
export {
  createIdempotencyRepository,
  hashRequestBody,
  type IdempotencyBegin,
  type IdempotencyRepository,
  type IdempotencyRequest,
} from './idempotency.js';
export {
  CLAIMING_OPERATION_KINDS,
  type ClaimingOperationKind,
  createOperationRepository,
  type MerchantOperation,
  type MerchantOperationKind,
  MONEY_OPERATION_KINDS,
  type MoneyOperationKind,
  type NewMerchantOperation,
  type OperationPatch,
  type OperationRepository,
  PENDING_OPERATION_STATUSES,
} from './operations.js';
export {
  createOrderRepository,
  FAILED_ORDER_STATUSES,
  FINAL_ORDER_STATUSES,
  type JsonObject,
  type MoneyRefusal,
  type MoneyWrite,
  type NewOrder,
  newReturnRef,
  type Order,
  type OrderListFilter,
  type OrderPage,
  type OrderPatch,
  type OrderRepository,
  type OrderState,
  type OrderWrite,
  PENDING_ORDER_STATUSES,
  UNPAID_ORDER_STATUSES,
} from './orders.js';
export {
  isSensitiveFieldName,
  maskCardNumbers,
  sanitizeFields,
  sanitizeRecord,
} from './sanitize.js';
export { CHECKOUT_MIGRATION_SET, checkoutMigrations } from './schema.js';
export {
  createSessionCardRepository,
  type OfferedCard,
  type SessionCardRepository,
} from './session-cards.js';
export {
  createSessionReadRepository,
  type SessionReadRepository,
  type SessionWithOrder,
} from './session-reads.js';
export {
  type CheckoutSession,
  type ClaimResult,
  type CollectSetting,
  createSessionRepository,
  type ExpiryWrite,
  type NewCheckoutSession,
  type PaymentOrderFields,
  type SessionRepository,
  type SessionWrite,
} from './sessions.js';
export { type Backlog, isListCursor } from './sql.js';
export {
  isAllowedMove,
  ORDER_MOVES,
  SESSION_MOVES,
  type StateMachine,
  type StateMove,
  StateMoveRefusedError,
  stateMovesMarkdown,
} from './state-moves.js';
export {
  createWebhookRepository,
  type MerchantWebhook,
  type WebhookListFilter,
  type WebhookPage,
  type WebhookRepository,
} from './webhooks.js';
