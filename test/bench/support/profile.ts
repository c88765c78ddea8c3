/**
 * Where a server's CPU time went, from a V8 .cpuprofile. Each busy sample goes to exactly one
 * named part (a library, a layer of ours, the database, Node's HTTP): the innermost frame of its
 * stack that some part claims, so a middleware is charged for its own work and not for the
 * handlers its `next()` runs, and PGlite's WASM is charged to PGlite whoever called it. Idle
 * samples are left out, so the shares are of the time the process was working; samples no part
 * claims are `other`.
 */

export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
}

export interface Part {
  name: string;
  /** Tested against `url#functionName` of each frame. */
  match: RegExp;
}

export interface PartShare {
  name: string;
  ms: number;
  /** Share of busy time, 0..1. */
  share: number;
}

export interface ProfileSummary {
  busyMs: number;
  wallMs: number;
  /** Every part that got time, largest first, then `other`. */
  parts: PartShare[];
}

const IDLE = new Set(['(idle)', '(program)']);
export const OTHER = 'other';

export function summarizeProfile(profile: CpuProfile, parts: readonly Part[]): ProfileSummary {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  // The part of each node: its own frame's, else its caller's (memoised up the tree).
  const memo = new Map<number, string>();
  const partOf = (id: number): string => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const frame = byId.get(id)?.callFrame;
    const label = frame ? `${frame.url}#${frame.functionName}` : '';
    const own = parts.find((part) => part.match.test(label))?.name;
    const up = parent.get(id);
    const found = own ?? (up === undefined ? OTHER : partOf(up));
    memo.set(id, found);
    return found;
  };
  const ms = new Map<string, number>();
  let busy = 0;
  let wall = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    wall += dt;
    if (IDLE.has(byId.get(id)?.callFrame.functionName ?? '')) return;
    busy += dt;
    const part = partOf(id);
    ms.set(part, (ms.get(part) ?? 0) + dt);
  });
  const shares = [...ms]
    .map(([name, t]) => ({ name, ms: t, share: busy > 0 ? t / busy : 0 }))
    .sort((a, b) => (a.name === OTHER ? 1 : b.name === OTHER ? -1 : b.ms - a.ms));
  return { busyMs: busy, wallMs: wall, parts: shares };
}

/**
 * Runs `work` with the CPU profiler of each server on (their POST /__bench/profile routes), and
 * answers the work's result and one profile per server, in the order of `servers`.
 */
export async function profileDuring<T>(
  servers: readonly string[],
  work: () => Promise<T>,
): Promise<{ result: T; profiles: CpuProfile[] }> {
  const post = async (url: string) => {
    const res = await fetch(url, { method: 'POST' });
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    return res.json();
  };
  for (const server of servers) await post(`${server}/__bench/profile/start`);
  const result = await work();
  const profiles: CpuProfile[] = [];
  for (const server of servers) {
    profiles.push((await post(`${server}/__bench/profile/stop`)) as CpuProfile);
  }
  return { result, profiles };
}
