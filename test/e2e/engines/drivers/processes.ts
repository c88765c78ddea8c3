/**
 * The browsers we start ourselves (Firefox; WebKitWebDriver under xvfb-run) must not outlive the
 * test process, however it ends: a test run killed half way (a time limit, Ctrl-C) would leave a
 * browser and an X server behind on a machine others share. puppeteer's own launch (Chromium)
 * does the same for its browser.
 */
import type { ChildProcess } from 'node:child_process';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Kills `child` (with `group`, its whole process group: it was spawned detached) when this
 * process exits or is told to stop. Returns the undo, for a child that ended the normal way.
 */
export function killWithUs(child: ChildProcess, group = false): () => void {
  const kill = () => {
    if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(group ? -child.pid : child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  // On a signal: kill, then let the signal do what it would have done without us.
  const onSignal = (signal: NodeJS.Signals) => {
    kill();
    undo();
    process.kill(process.pid, signal);
  };
  const undo = () => {
    process.off('exit', kill);
    for (const s of SIGNALS) process.off(s, onSignal);
  };
  process.once('exit', kill);
  for (const s of SIGNALS) process.once(s, onSignal);
  child.once('exit', undo);
  return undo;
}
