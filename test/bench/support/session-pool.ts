/**
 * Checkout sessions made before a timed pay run, so that the run times paying only. If the pool
 * runs dry the cycle makes its own session, and that is counted and reported.
 */
import { createSession } from './checkout-client.js';

export interface SessionPool {
  take(): Promise<string>;
  /** Sessions the timed run had to make itself. */
  readonly madeInline: number;
}

export async function sessionPool(
  backendUrl: string,
  apiKey: string,
  size: number,
  concurrency = 8,
): Promise<SessionPool> {
  const tokens: string[] = [];
  let left = size;
  const worker = async () => {
    while (left > 0) {
      left -= 1;
      tokens.push((await createSession(backendUrl, apiKey)).token);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  let inline = 0;
  return {
    async take() {
      const token = tokens.pop();
      if (token) return token;
      inline += 1;
      return (await createSession(backendUrl, apiKey)).token;
    },
    get madeInline() {
      return inline;
    },
  };
}
