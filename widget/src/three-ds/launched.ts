/**
 * Which launcher pages (each one bank step: a CReq, a PaReq, a gateway page) this tab has already
 * loaded, kept in sessionStorage so it survives a reload and Back. A used CReq is never posted
 * again: a real ACS refuses a second one, and in redirect mode it would send a shopper who came
 * back straight back to the bank.
 */
const KEY = 'pay-checkout:launched';
/** Enough for every step of a few payments in one tab; older entries are dropped. */
const KEEP = 20;

function read(storage: Storage | undefined): string[] {
  try {
    const list: unknown = JSON.parse(storage?.getItem(KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function wasLaunched(storage: Storage | undefined, launchUrl: string): boolean {
  return read(storage).includes(launchUrl);
}

export function markLaunched(storage: Storage | undefined, launchUrl: string): void {
  try {
    storage?.setItem(KEY, JSON.stringify([...read(storage), launchUrl].slice(-KEEP)));
  } catch {
    // Storage refused (private mode quota, a sandboxed page): the step still runs once here.
  }
}
