/**
 * What changed between two inventories of a page, one line each, for the person on call:
 * `+` a script or header that appeared, `-` one that went, `~` one that changed. An external
 * script is known by its address, an inline one by its hash (so an edited inline script is one
 * gone and one new). Pure.
 */
import type { PageInventory, ScriptEntry } from './inventory.js';

export interface PageChange {
  kind: 'added' | 'removed' | 'changed';
  what: 'script' | 'header';
  /** The script's address or inline hash; the header's name. */
  name: string;
  before?: string;
  after?: string;
}

const keyOf = (s: ScriptEntry) => s.src ?? `inline ${s.inline}`;
const describe = (s: ScriptEntry) =>
  [
    s.type ? `type=${s.type}` : undefined,
    s.src ? (s.integrity ? `integrity=${s.integrity}` : 'no integrity') : undefined,
    s.content ? `content=${s.content}` : undefined,
  ]
    .filter(Boolean)
    .join(' ');

function byKey(scripts: ScriptEntry[]): Map<string, ScriptEntry[]> {
  const map = new Map<string, ScriptEntry[]>();
  for (const s of scripts) map.set(keyOf(s), [...(map.get(keyOf(s)) ?? []), s]);
  return map;
}

export function pageChanges(before: PageInventory, after: PageInventory): PageChange[] {
  const changes: PageChange[] = [];
  const old = byKey(before.scripts);
  const now = byKey(after.scripts);
  for (const [name, list] of now) {
    const was = old.get(name) ?? [];
    list.forEach((s, i) => {
      const prior = was[i];
      if (!prior) changes.push({ kind: 'added', what: 'script', name, after: describe(s) });
      else if (describe(prior) !== describe(s))
        changes.push({
          kind: 'changed',
          what: 'script',
          name,
          before: describe(prior),
          after: describe(s),
        });
    });
  }
  for (const [name, list] of old) {
    const still = now.get(name)?.length ?? 0;
    for (const s of list.slice(still))
      changes.push({ kind: 'removed', what: 'script', name, before: describe(s) });
  }
  const names = new Set([...Object.keys(before.headers), ...Object.keys(after.headers)]);
  for (const name of [...names].sort()) {
    const [b, a] = [before.headers[name], after.headers[name]];
    if (b === a) continue;
    const kind = b === undefined ? 'added' : a === undefined ? 'removed' : 'changed';
    changes.push({ kind, what: 'header', name, before: b, after: a });
  }
  return changes;
}

const MARK = { added: '+', removed: '-', changed: '~' } as const;

/** `+ script https://x/a.js (no integrity)`, `~ header content-security-policy: "a" -> "b"`. */
export function formatChange(c: PageChange): string {
  const detail =
    c.kind === 'changed'
      ? `: ${JSON.stringify(c.before)} -> ${JSON.stringify(c.after)}`
      : c.what === 'header'
        ? `: ${JSON.stringify(c.after ?? c.before)}`
        : (c.after ?? c.before)
          ? ` (${c.after ?? c.before})`
          : '';
  return `${MARK[c.kind]} ${c.what} ${c.name}${detail}`;
}
