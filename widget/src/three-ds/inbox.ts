/**
 * One `message` listener for the element's lifetime, and promises for the messages a step waits
 * for. Messages nobody waits for (or that fail the checks) are dropped.
 */
import type { ReturnMessage } from '../api-types.js';
import { acceptReturnMessage } from './messages.js';

interface Waiter {
  types: readonly ReturnMessage['type'][];
  orderId: string;
  resolve: (m: ReturnMessage) => void;
}

export class ReturnInbox {
  private waiters = new Set<Waiter>();
  private readonly origin: () => string;

  constructor(origin: () => string) {
    this.origin = origin;
  }

  readonly handleEvent = (event: MessageEvent): void => {
    for (const w of [...this.waiters]) {
      const msg = acceptReturnMessage(event, this.origin(), w.orderId);
      if (msg && w.types.includes(msg.type)) {
        this.waiters.delete(w);
        w.resolve(msg);
      }
    }
  };

  /** Resolves with the first accepted message of one of `types`; never rejects, so pair it with a race. */
  wait(
    types: readonly ReturnMessage['type'][],
    orderId: string,
    signal: AbortSignal,
  ): Promise<ReturnMessage> {
    return new Promise((resolve) => {
      const w: Waiter = { types, orderId, resolve };
      this.waiters.add(w);
      signal.addEventListener('abort', () => this.waiters.delete(w), { once: true });
    });
  }

  clear(): void {
    this.waiters.clear();
  }
}
