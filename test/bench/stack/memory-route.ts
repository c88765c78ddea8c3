/**
 * GET /__bench/memory: the server's own process.memoryUsage(), sampled by the bench over HTTP, with
 * V8's heap spaces beside it (`heapSpaces`: committed and used bytes of each) to tell what an RSS
 * is made of.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import type { Express } from 'express';

export function mountMemoryRoute(app: Express): void {
  app.get('/__bench/memory', (_req, res) => {
    const heapSpaces = Object.fromEntries(
      getHeapSpaceStatistics().map((s) => [
        s.space_name,
        { committed: s.space_size, used: s.space_used_size },
      ]),
    );
    res.json({ ...process.memoryUsage(), heapSpaces });
  });
}

/** Stops on SIGTERM / SIGINT: `stop` closes servers and stores, then the process exits. */
export function onStop(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
