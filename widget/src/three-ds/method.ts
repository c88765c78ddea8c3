/**
 * The 3DS Method: the backend's launcher page, in a hidden iframe, posts threeDSMethodData to the
 * issuer's page, which fingerprints the browser and then posts to the backend's notification
 * page, which tells us by postMessage. An iframe `load` event proves nothing (it fires for error
 * pages too), so only that message counts as `Y`.
 */
import type { Clock } from '../env.js';

export type CompInd = 'Y' | 'N' | 'U';

export interface MethodOptions {
  /** Where the hidden frame goes (inside the element's shadow root). */
  container: ParentNode & Node;
  /** The launcher page that posts the Method form; absent when the card range has no Method. */
  launchUrl?: string | undefined;
  timeoutMs: number;
  clock: Clock;
  /** Resolves when the notification page reports completion. */
  completed: Promise<unknown>;
  signal: AbortSignal;
}

export async function runMethod(o: MethodOptions): Promise<CompInd> {
  // EMV: no Method URL for this card range means "U", reported at once.
  if (!o.launchUrl) return 'U';
  const doc = o.container.ownerDocument ?? document;
  const frame = doc.createElement('iframe');
  frame.title = '3-D Secure method';
  frame.className = 'method-frame';
  frame.tabIndex = -1;
  frame.setAttribute('aria-hidden', 'true');
  frame.src = o.launchUrl;
  let timer: number | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const result = new Promise<CompInd>((resolve, reject) => {
      // EMV counts the 10 s from the post; the launcher posts as soon as it has loaded.
      timer = o.clock.setTimeout(() => resolve('N'), o.timeoutMs);
      o.completed.then(() => resolve('Y'), reject);
      onAbort = () => reject(o.signal.reason);
      if (o.signal.aborted) onAbort();
      else o.signal.addEventListener('abort', onAbort, { once: true });
    });
    o.container.append(frame);
    return await result;
  } finally {
    if (timer !== undefined) o.clock.clearTimeout(timer);
    if (onAbort) o.signal.removeEventListener('abort', onAbort);
    frame.remove();
  }
}
