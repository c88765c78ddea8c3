/**
 * The names of the merchant API's shared schemas, as `components.schemas` of the OpenAPI document
 * shows them (openapi-components.ts). A name goes into zod's global registry on the very schema
 * object that validates, so the document and the validation stay one thing; a client generated
 * from the document gets one type per name (one `Order`, one `ErrorResponse`), wherever it occurs.
 *
 * Kept apart from schemas.ts so that the schemas' own file says what is accepted, and this one
 * what each shape is called. Imported for its effect by openapi.ts, before any conversion.
 */
import type { z } from 'zod';
import { globalRegistry } from 'zod';
import { AMOUNT_FITS_CURRENCY } from './amount-rules.js';
import {
  Amount,
  Attempt,
  CardInfo,
  CardRef,
  CheckoutSessionView,
  CreateSessionBody,
  Currency,
  Customer,
  EmptyBody,
  ErrorResponse,
  Event,
  EventList,
  HostedFormKind,
  HostedFormLink,
  Operation,
  Order,
  OrderCardRef,
  OrderList,
  OrderStatusEnum,
  PartialAmountBody,
  SessionCreated,
} from './schemas.js';

/**
 * Gives `schema` a name, keeping what its metadata already says; `extra` adds JSON Schema words
 * that zod cannot derive from a refinement (uniqueItems, if/then), for the document only.
 */
export function nameSchema(schema: z.ZodType, id: string, extra: Record<string, unknown> = {}) {
  globalRegistry.add(schema, { ...globalRegistry.get(schema), ...extra, id });
}

/** JSON Schema words for a schema that keeps its name (or has none). */
export function annotateSchema(schema: z.ZodType, extra: Record<string, unknown>) {
  globalRegistry.add(schema, { ...globalRegistry.get(schema), ...extra });
}

const NAMES: ReadonlyArray<readonly [z.ZodType, string]> = [
  [Amount, 'Amount'],
  [Currency, 'Currency'],
  [Customer, 'Customer'],
  [CreateSessionBody, 'CreateCheckoutSessionBody'],
  [SessionCreated, 'CheckoutSessionCreated'],
  [CheckoutSessionView, 'CheckoutSession'],
  [OrderStatusEnum, 'OrderStatus'],
  [Attempt, 'PaymentAttempt'],
  [OrderCardRef, 'OrderCardRef'],
  [Order, 'Order'],
  [OrderList, 'OrderList'],
  [Event, 'Event'],
  [EventList, 'EventList'],
  [Operation, 'Operation'],
  [CardRef, 'CardRef'],
  [CardInfo, 'CardInfo'],
  [HostedFormKind, 'HostedFormKind'],
  [HostedFormLink, 'HostedFormLink'],
  [ErrorResponse, 'ErrorResponse'],
  [EmptyBody, 'EmptyBody'],
  [PartialAmountBody, 'PartialAmountBody'],
];

for (const [schema, id] of NAMES) nameSchema(schema, id);

// What CreateSessionBody's refinements check, in the document's words.
annotateSchema(CreateSessionBody, { allOf: AMOUNT_FITS_CURRENCY });
annotateSchema(CreateSessionBody.shape.modes, { uniqueItems: true });
annotateSchema(CreateSessionBody.shape.savedCards, { uniqueItems: true });
