/** The sandbox's parts, built once by createSandboxApp and handed to every operation. */
import type pino from 'pino';
import type { Callbacks } from './callbacks.js';
import type { Faults } from './faults.js';
import type { JobRunner } from './jobs.js';
import type { MerchantRegistry } from './merchants.js';
import type { Processor } from './processor.js';
import type { Clock } from './scheduler.js';
import type { SandboxStore } from './store.js';

export interface Sandbox {
  store: SandboxStore;
  jobs: JobRunner;
  clock: Clock;
  merchants: MerchantRegistry;
  processor: Processor;
  callbacks: Callbacks;
  faults: Faults;
  log: pino.Logger;
  /** `/paynet`. */
  basePath: string;
  devMode: boolean;
  publicOrigin: string | undefined;
  /** CSP `frame-ancestors` sources of the pages it serves to browsers. */
  frameAncestors: readonly string[];
}
