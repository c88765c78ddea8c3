/**
 * POST /__bench/profile/start and /__bench/profile/stop: the V8 CPU profiler of the server's own
 * process (node:inspector, the same profiler as `node --cpu-prof`), switched on for one case of
 * the bench only, so the timed runs are never profiled. `stop` answers the .cpuprofile JSON.
 */
import { Session } from 'node:inspector/promises';
import type { Express } from 'express';

export function mountProfileRoute(app: Express): void {
  let session: Session | undefined;
  app.post('/__bench/profile/start', async (_req, res) => {
    session?.disconnect();
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    // 250 µs: fine enough for handlers that take tens of microseconds.
    await session.post('Profiler.setSamplingInterval', { interval: 250 });
    await session.post('Profiler.start');
    res.json({ ok: true });
  });
  app.post('/__bench/profile/stop', async (_req, res) => {
    if (!session) {
      res.status(409).json({ error: 'not profiling' });
      return;
    }
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    session = undefined;
    res.json(profile);
  });
}
