/**
 * Payment links: create one (its page at `url`, a QR code of it), read one, list them, deactivate
 * one. What a link does is the domain's (payment-links/); each visit of its page is a checkout
 * session, and its payments are orders like any other.
 */
import { toMinorUnits } from '../../../signing/index.js';
import { PAYMENT_LINK_ID, type PaymentLink } from '../../../store/index.js';
import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import {
  createPaymentLink,
  currentLink,
  DEFAULT_LINK_DAYS,
  deactivateLink,
  randomOrderIdPrefix,
} from '../../payment-links/links.js';
import { paymentLinkView, qrCodeOf } from '../../payment-links/views.js';
import {
  CreatePaymentLinkBody,
  ListPaymentLinksQuery,
  PAYMENT_LINK_PARAM,
  PaymentLinkAnswer,
  PaymentLinkList,
} from './payment-link-schemas.js';
import type { RouteTable } from './route-spec.js';
import { EmptyBody, ErrorResponse } from './schemas.js';

const TAG = 'Payment links';

export function paymentLinkRoutes(ctx: Context, routes: RouteTable): void {
  /** The link, its due expiry applied; a 404 for an id of no link (any shape of id). */
  const load = async (id: string): Promise<PaymentLink> => {
    const link = PAYMENT_LINK_ID.test(id) ? await currentLink(ctx, id) : null;
    if (!link) throw notFound(`Payment link ${id}`);
    return link;
  };
  const answer = async (link: PaymentLink) => ({
    ...(await paymentLinkView(ctx, link, await ctx.store.paymentLinks.paidVisits(link.id))),
    qrCode: await qrCodeOf(ctx, link),
  });

  routes.add(
    {
      method: 'post',
      path: '/payment-links',
      operationId: 'createPaymentLink',
      summary:
        'Create a payment link: a page of ours (`url`, and its QR code) where a shopper pays the amount, for a sale with no shop page.',
      tag: TAG,
      body: CreatePaymentLinkBody,
      responses: { 201: { description: 'Created', schema: PaymentLinkAnswer } },
    },
    async ({ body }, _req, res) => {
      const link = await createPaymentLink(ctx, {
        amountMinor: toMinorUnits(body.amount, body.currency),
        currency: body.currency,
        intent: body.intent,
        description: body.description,
        orderIdPrefix: body.orderId ?? randomOrderIdPrefix(),
        customer: { ...body.customer },
        collect: body.collect,
        countryHint: body.countryHint ?? null,
        locale: body.locale ?? null,
        returnUrl: body.returnUrl ?? null,
        metadata: body.metadata ?? {},
        reusable: body.reusable,
        maxPayments: body.maxPayments ?? null,
        expiresAt: body.expiresAt
          ? new Date(body.expiresAt)
          : new Date(Date.now() + DEFAULT_LINK_DAYS * 86_400_000),
      });
      res.status(201).json(await answer(link));
    },
  );

  routes.add(
    {
      method: 'get',
      path: '/payment-links/:paymentLinkId',
      operationId: 'getPaymentLink',
      summary: 'Read a payment link: its state and the payments it took.',
      tag: TAG,
      params: PAYMENT_LINK_PARAM,
      responses: {
        200: { description: 'The payment link', schema: PaymentLinkAnswer },
        404: { description: 'Not found', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      res.json(await answer(await load(params.paymentLinkId ?? '')));
    },
  );

  routes.add(
    {
      method: 'get',
      path: '/payment-links',
      operationId: 'listPaymentLinks',
      summary: 'List payment links, newest first, with a cursor (no QR codes: read one for it).',
      tag: TAG,
      query: ListPaymentLinksQuery,
      responses: { 200: { description: 'A page of payment links', schema: PaymentLinkList } },
    },
    async ({ query }, _req, res) => {
      const page = await ctx.store.paymentLinks.list({
        limit: query.limit,
        ...(query.cursor ? { cursor: query.cursor } : {}),
      });
      // A due expiry applied as on a single read; then every listed link's payments in one read.
      const links = await Promise.all(
        page.links.map(async (l) => (await currentLink(ctx, l.id)) ?? l),
      );
      const paid = await ctx.store.paymentLinks.paidVisitsOfLinks(links.map((l) => l.id));
      res.json({
        paymentLinks: await Promise.all(
          links.map((l) => paymentLinkView(ctx, l, paid.get(l.id) ?? [])),
        ),
        nextCursor: page.nextCursor,
      });
    },
  );

  routes.add(
    {
      method: 'post',
      path: '/payment-links/:paymentLinkId/deactivate',
      operationId: 'deactivatePaymentLink',
      summary:
        'End an active link now: its page takes no payment, the open sessions of its visits are expired, and an approval that still arrives for one of them is reversed in full. A link that is paid, expired or deactivated already is answered as it is.',
      tag: TAG,
      params: PAYMENT_LINK_PARAM,
      body: EmptyBody,
      responses: {
        200: { description: 'The payment link', schema: PaymentLinkAnswer },
        404: { description: 'Not found', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      const link = await load(params.paymentLinkId ?? '');
      res.json(await answer((await deactivateLink(ctx, link.id)) ?? link));
    },
  );
}
