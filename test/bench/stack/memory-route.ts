/** GET /__bench/memory: the server's own process.memoryUsage(), sampled by the bench over HTTP. */
import type { Express } from 'express';

export function mountMemoryRoute(app: Express): void {
  app.get('/__bench/memory', (_req, res) => {
    res.json(process.memoryUsage());
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
