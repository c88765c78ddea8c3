/**
 * Fetches a payment page as a browser would receive it (HTML and headers, redirects followed),
 * reads its inventory (inventory.ts), and fetches each external script to record the sha384 of
 * its bytes: a script with no `integrity` that changes on its server is a change too.
 */
import { sri } from '../../sri.js';
import { type PageInventory, pageInventory } from './inventory.js';

/** How long one fetch may take, and how many external scripts are fetched at most. */
export const FETCH_TIMEOUT_MS = 15_000;
const MAX_SCRIPTS = 50;

export async function pageSnapshot(
  url: string,
  fetchImpl: typeof fetch = fetch,
): Promise<PageInventory> {
  const res = await fetchImpl(url, {
    headers: { Accept: 'text/html' },
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
  const inventory = pageInventory(res.url || url, await res.text(), res.headers);
  await Promise.all(
    inventory.scripts
      .filter((s) => s.src)
      .slice(0, MAX_SCRIPTS)
      .map(async (script) => {
        try {
          const r = await fetchImpl(script.src as string, {
            signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
          });
          script.content = r.ok ? sri(new Uint8Array(await r.arrayBuffer())) : `HTTP ${r.status}`;
        } catch (error) {
          script.content = `unreachable (${error instanceof Error ? error.name : 'error'})`;
        }
      }),
  );
  return inventory;
}
