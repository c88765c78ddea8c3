/**
 * The 3DS Method: the backend's launcher page, in a hidden iframe, posts threeDSMethodData to the
 * issuer's page, which fingerprints the browser and then posts to the backend's notification
 * page, which tells us by postMessage. An iframe `load` event proves nothing (it fires for error
 * pages too), so only that message counts as `Y`.
 */
import { type Clock, sleep } from '../env.js';

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
  /** Ends the Method early: the result rejects with its reason. */
  signal: AbortSignal;
}

export async function runMethod(o: MethodOptions): Promise<CompInd> {
  // EMV: no Method URL for this card range means "U", reported at once.
  if (!o.launchUrl) return 'U';
  const frame = document.createElement('iframe');
  frame.title = '3-D Secure method';
  frame.className = 'method-frame';
  frame.tabIndex = -1;
  frame.setAttribute('aria-hidden', 'true');
  frame.src = o.launchUrl;
  // Stops the timer once the Method is over, whichever way.
  const over = new AbortController();
  try {
    // EMV counts the 10 s from the post; the launcher posts as soon as it has loaded.
    const timedOut = sleep(o.clock, o.timeoutMs, AbortSignal.any([o.signal, over.signal]));
    o.container.append(frame);
    return await Promise.race([
      o.completed.then(() => 'Y' as const),
      timedOut.then(() => 'N' as const),
    ]);
  } finally {
    over.abort();
    frame.remove();
  }
}
