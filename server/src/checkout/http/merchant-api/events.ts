/**
 * The events the backend makes, for the merchant to read back: a shop whose endpoint was down
 * longer than the retries last, or that lost what it received, catches up by listing them
 * (undelivered first of all), and asks for one to be sent again. With no WEBHOOK_URL they are
 * kept all the same (`delivery.state: 'not-configured'`): a shop that cannot receive webhooks
 * polls the list as a feed.
 */
import type { MerchantWebhook } from '../../../store/index.js';
import type { Context } from '../../context.js';
import { conflict, notFound } from '../../errors.js';
import type { RouteTable } from './route-spec.js';
import {
  EmptyBody,
  ErrorResponse,
  EVENT_PARAM,
  Event,
  EventList,
  ListEventsQuery,
} from './schemas.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Where an event's delivery stands, in one word. */
export function deliveryState(row: MerchantWebhook) {
  if (row.deliveredAt !== null) return 'delivered' as const;
  if (row.failedAt !== null) return 'failed' as const;
  return row.notConfigured ? ('not-configured' as const) : ('pending' as const);
}

/** The event as delivered (its payload), and how its delivery stands. */
export function eventView(row: MerchantWebhook) {
  const state = deliveryState(row);
  const pending = state === 'pending';
  return {
    ...(row.payload as { id: string; type: string; createdAt: string; data: object }),
    delivery: {
      state,
      delivered: row.deliveredAt !== null,
      deliveredAt: iso(row.deliveredAt),
      attempts: row.attempts,
      nextAttemptAt: pending ? iso(row.nextAttemptAt) : null,
      failedAt: iso(row.failedAt),
      lastError: row.lastError,
    },
  };
}

export function eventRoutes(ctx: Context, routes: RouteTable): void {
  routes.add(
    {
      method: 'get',
      path: '/events',
      operationId: 'listEvents',
      summary:
        'List the events, newest first, by type, order and delivery, with a cursor: kept with or without WEBHOOK_URL (`delivery.state` `not-configured` without), for EVENT_RETENTION_DAYS.',
      tag: 'Events',
      query: ListEventsQuery,
      responses: { 200: { description: 'A page of events', schema: EventList } },
    },
    async ({ query }, _req, res) => {
      const page = await ctx.store.webhooks.list({
        type: query.type,
        orderId: query.orderId,
        delivered: query.delivered,
        limit: query.limit,
        cursor: query.cursor,
      });
      res.json({ events: page.events.map(eventView), nextCursor: page.nextCursor });
    },
  );

  routes.add(
    {
      method: 'post',
      path: '/events/:eventId/redeliver',
      operationId: 'redeliverEvent',
      summary:
        'Send an event to WEBHOOK_URL again now, delivered, given up before or kept while no WEBHOOK_URL was set; the usual retries follow, counted from now (`attempts` from 0, the three-day window from the redelivery). A 409 while no WEBHOOK_URL is set.',
      tag: 'Events',
      params: EVENT_PARAM,
      body: EmptyBody,
      responses: {
        202: { description: 'Queued for delivery', schema: Event },
        404: { description: 'No such event', schema: ErrorResponse },
        409: { description: 'No WEBHOOK_URL is configured', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      const found = await ctx.store.webhooks.byEventId(params.eventId ?? '');
      if (found && !ctx.config.webhook)
        throw conflict('No WEBHOOK_URL is configured: there is nowhere to send the event');
      const queued = found && (await ctx.store.webhooks.redeliver(found.id));
      if (!queued) throw notFound(`Event ${params.eventId}`);
      res.status(202).json(eventView(queued));
    },
  );
}
