/**
 * Where the backend serves an order's gateway page (gateway-page/route.ts serves it; payments name
 * it in an `html` next action). Kept apart from the route so that domain code imports no router.
 */
export const GATEWAY_PAGE_PATH = '/gateway-page';

/** Where the widget loads an order's gateway page. */
export function gatewayPageUrl(publicUrl: string, returnRef: string): string {
  return `${publicUrl}${GATEWAY_PAGE_PATH}/${returnRef}`;
}
