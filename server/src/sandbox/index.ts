/** The sandbox gateway emulator: public API for main.ts and tests. */
export { createSandboxApp, type SandboxApp } from './app.js';
export { type DescribeInput, describeSandbox } from './describe.js';
export type { FaultSettings } from './faults.js';
export { DEV_MERCHANT, type DevCredentials, type Merchant } from './merchants.js';
export type { Transaction, TxStatus } from './model.js';
export {
  type CallbackOptions,
  type MerchantOptions,
  SandboxConfigError,
  type SandboxOptions,
  sandboxOptionsFromEnv,
} from './options.js';
export { type Clock, type ManualClock, manualClock, systemClock } from './scheduler.js';
export {
  SANDBOX_OTP,
  type ScenarioName,
  TEST_CARDS,
  type TestCard,
} from './test-cards.js';
