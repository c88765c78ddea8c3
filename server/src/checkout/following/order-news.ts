/**
 * Listening for news of one order for the length of a long poll. The listener is registered once,
 * when the long poll starts, and remembers news that arrives while the long poll is busy (reading
 * the store, asking the gateway): a wait that follows such news returns at once. Listening afresh
 * before each wait would lose a callback that lands between a read and the next wait, and the long
 * poll would sleep a whole pause on an order that is already final. The instance closing is news
 * too: a long poll then answers where the order stands instead of holding the shutdown.
 */
import type { Context } from '../context.js';

export interface OrderNews {
  /** Resolves on news (or at once if some came since the last wait), or after `ms`. */
  wait(ms: number): Promise<void>;
  close(): void;
}

export function listenForNews(ctx: Context, orderId: string): OrderNews {
  const event = `order:${orderId}`;
  let news = false;
  let wake: (() => void) | undefined;
  const onNews = () => {
    news = true;
    wake?.();
  };
  ctx.events.on(event, onNews);
  ctx.events.on('closing', onNews);
  return {
    wait(ms) {
      if (news || ms <= 0) {
        news = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          news = false;
          resolve();
        }
        wake = done;
      });
    },
    close() {
      ctx.events.off(event, onNews);
      ctx.events.off('closing', onNews);
      wake?.();
    },
  };
}
