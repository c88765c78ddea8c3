/**
 * The messages of the backend's return pages (`ReturnMessage`): they tell a step waiting in this
 * page that the bank's page is done. Anything can post to our window (ads, extensions, the ACS
 * itself), so a message counts only when it comes from the backend's exact origin, has the
 * ReturnMessage shape, names the order the step waits on, and is of a type the step waits for.
 * Anything else is ignored, silently.
 */
import type { ReturnMessage } from '../../../contract/api-types.js';

type MessageType = ReturnMessage['type'];

/** Whether `event` is a return page's message of one of `types` about `orderId`, from `origin`. */
export function isReturnMessage(
  event: MessageEvent,
  origin: string,
  orderId: string,
  types: readonly MessageType[],
): boolean {
  if (event.origin !== origin) return false;
  // An object, as the return page posts it (JSON text, a string, is none of ours).
  const m = event.data as Partial<ReturnMessage> | null | undefined;
  return m?.source === 'pay-checkout' && m.orderId === orderId && types.includes(m.type!);
}

/** Resolves once such a message arrives; never rejects. Stops listening when `signal` aborts. */
export function returnMessage(
  origin: string,
  orderId: string,
  types: readonly MessageType[],
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve) => {
    const heard = new AbortController();
    window.addEventListener(
      'message',
      (event) => {
        if (!isReturnMessage(event, origin, orderId, types)) return;
        heard.abort();
        resolve();
      },
      { signal: AbortSignal.any([signal, heard.signal]) },
    );
  });
}
