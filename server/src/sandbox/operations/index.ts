/** Every gateway operation the sandbox serves. */
import type { OperationDef } from '../http/operation.js';
import { cardRefOperations } from './card-refs.js';
import { formOperations } from './forms.js';
import { managementOperations } from './management.js';
import { paymentOperations } from './payments.js';
import { payoutOperations } from './payouts.js';
import { recurringOperations } from './recurring.js';
import { statusOperation } from './status.js';
import { threeDsOperations } from './three-ds.js';
import { transferOperations } from './transfers.js';

export const OPERATIONS: OperationDef[] = [
  ...paymentOperations,
  ...formOperations,
  ...managementOperations,
  statusOperation,
  ...threeDsOperations,
  ...cardRefOperations,
  ...recurringOperations,
  ...payoutOperations,
  ...transferOperations,
];
