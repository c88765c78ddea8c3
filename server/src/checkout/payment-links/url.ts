/**
 * Where the backend serves a payment link's page (http/payment-link-page/ serves it); kept apart
 * from the route so that domain code imports no router, as payments/urls.ts does for orders.
 */
export const PAYMENT_LINK_PAGE_PATH = '/pay';

export function paymentLinkUrl(publicUrl: string, linkId: string): string {
  return `${publicUrl}${PAYMENT_LINK_PAGE_PATH}/${linkId}`;
}

/** A visit's own address: a reload (or a 3-D Secure redirect's return) finds its session again. */
export function visitUrl(publicUrl: string, linkId: string, token: string): string {
  return `${paymentLinkUrl(publicUrl, linkId)}?visit=${encodeURIComponent(token)}`;
}
