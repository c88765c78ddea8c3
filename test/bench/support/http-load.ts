/**
 * Fixed-duration HTTP load with autocannon: requests per second and latency percentiles, and
 * every failure counted (connection errors, timeouts, non-2xx answers) so a fast error page can
 * never pass for throughput.
 */
import autocannon, { type Request } from 'autocannon';

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A fresh body per request (e.g. a unique order id); else `body`. */
  body?: string;
  nextBody?: () => string;
  connections: number;
  durationS: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  timeouts: number;
  durationS: number;
  connections: number;
}

export async function httpLoad(spec: LoadSpec): Promise<LoadResult> {
  const { nextBody } = spec;
  const request: Request = {
    method: spec.method ?? 'GET',
    headers: spec.headers ?? {},
    ...(spec.body ? { body: spec.body } : {}),
    ...(nextBody ? { setupRequest: (r: Request) => ({ ...r, body: nextBody() }) } : {}),
  };
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationS,
    timeout: 30,
    requests: [request],
  });
  return {
    requests: result['2xx'],
    // Successful answers only, over the wall time of the run.
    rps: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    timeouts: result.timeouts,
    durationS: result.duration,
    connections: spec.connections,
  };
}
