import { PayCheckoutError } from '../errors.js';
/**
 * Fault switches, off by default: per endpoint (options, or `POST /sandbox/faults` in dev mode;
 * `*` applies to every endpoint) or per request (`X-Sandbox-Fault` header, dev mode only).
 */

export interface FaultSettings {
  /** Added before answering, milliseconds. */
  latencyMs?: number;
  /** Share of calls (0..1) answered 500 before anything changes. */
  errorRate?: number;
  /** Share of calls (0..1) whose connection is destroyed after the state change committed. */
  dropRate?: number;
  /** Every callback is delivered twice. */
  duplicateCallbacks?: boolean;
  /** After each new callback of an order, the previous one is delivered again (stale, late). */
  outOfOrderCallbacks?: boolean;
  /** No callback is sent at all (lost, or never configured): only `status` tells the outcome. */
  lostCallbacks?: boolean;
}

export class Faults {
  private readonly byEndpoint = new Map<string, FaultSettings>();

  private readonly random: () => number;

  constructor(initial: Record<string, FaultSettings> = {}, random: () => number = Math.random) {
    this.random = random;
    for (const [endpoint, settings] of Object.entries(initial)) this.set(endpoint, settings);
  }

  set(endpoint: string, settings: FaultSettings): void {
    this.byEndpoint.set(endpoint, validateFaults(settings));
  }

  clear(): void {
    this.byEndpoint.clear();
  }

  settingsFor(endpoint: string, requestHeader?: string): FaultSettings {
    return {
      ...this.byEndpoint.get('*'),
      ...this.byEndpoint.get(endpoint),
      ...(requestHeader ? parseFaultHeader(requestHeader) : {}),
    };
  }

  /** True with probability `rate`. */
  roll(rate: number | undefined): boolean {
    return rate !== undefined && rate > 0 && this.random() < rate;
  }

  snapshot(): Record<string, FaultSettings> {
    return Object.fromEntries(this.byEndpoint);
  }
}

/** `latency=250, 5xx, drop, duplicate-callbacks, out-of-order-callbacks, lost-callbacks`. */
export function parseFaultHeader(header: string): FaultSettings {
  const settings: FaultSettings = {};
  for (const part of header.split(',')) {
    const [name = '', value] = part.trim().split('=');
    if (name === 'latency' && value && /^\d{1,5}$/.test(value)) settings.latencyMs = Number(value);
    else if (name === '5xx') settings.errorRate = 1;
    else if (name === 'drop') settings.dropRate = 1;
    else if (name === 'duplicate-callbacks') settings.duplicateCallbacks = true;
    else if (name === 'out-of-order-callbacks') settings.outOfOrderCallbacks = true;
    else if (name === 'lost-callbacks') settings.lostCallbacks = true;
  }
  return settings;
}

/** Fault switches that are not what `validateFaults` takes (the sandbox answers a 400). */
export class FaultSettingsError extends PayCheckoutError {
  constructor(message: string) {
    super('sandbox-faults', message);
  }
}

export function validateFaults(input: unknown): FaultSettings {
  if (typeof input !== 'object' || input === null) {
    throw new FaultSettingsError('fault settings must be an object');
  }
  const source = input as Record<string, unknown>;
  const out: FaultSettings = {};
  const rate = (name: 'errorRate' | 'dropRate') => {
    const v = source[name];
    if (v === undefined) return;
    if (typeof v !== 'number' || !(v >= 0 && v <= 1)) {
      throw new FaultSettingsError(`${name} must be a number from 0 to 1`);
    }
    out[name] = v;
  };
  const flag = (name: 'duplicateCallbacks' | 'outOfOrderCallbacks' | 'lostCallbacks') => {
    const v = source[name];
    if (v === undefined) return;
    if (typeof v !== 'boolean') throw new FaultSettingsError(`${name} must be true or false`);
    out[name] = v;
  };
  if (source.latencyMs !== undefined) {
    const v = source.latencyMs;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 60_000) {
      throw new FaultSettingsError('latencyMs must be an integer from 0 to 60000');
    }
    out.latencyMs = v;
  }
  rate('errorRate');
  rate('dropRate');
  flag('duplicateCallbacks');
  flag('outOfOrderCallbacks');
  flag('lostCallbacks');
  return out;
}
