/** The merchant resources beyond sessions and orders, one file each. */
import type { Context } from '../../context.js';
import { cardRefRoutes } from './card-refs.js';
import { eventRoutes } from './events.js';
import { hostedFormRoutes } from './hosted-forms.js';
import { operationRoutes } from './operations.js';
import { paymentLinkRoutes } from './payment-links.js';
import { payoutRoutes } from './payouts.js';
import { rebillRoutes } from './rebills.js';
import { recurringRoutes } from './recurring.js';
import type { RouteTable } from './route-spec.js';
import { transferRoutes } from './transfers.js';
import { verificationRoutes } from './verifications.js';

export function extraRoutes(ctx: Context, routes: RouteTable): void {
  cardRefRoutes(ctx, routes);
  rebillRoutes(ctx, routes);
  recurringRoutes(ctx, routes);
  payoutRoutes(ctx, routes);
  transferRoutes(ctx, routes);
  verificationRoutes(ctx, routes);
  hostedFormRoutes(ctx, routes);
  operationRoutes(ctx, routes);
  paymentLinkRoutes(ctx, routes);
  eventRoutes(ctx, routes);
}
