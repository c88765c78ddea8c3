/** Every gateway operation the sandbox serves. */
import type { OperationDef } from '../http/operation.js';
import { managementOperations } from './management.js';
import { paymentOperations } from './payments.js';
import { statusOperation } from './status.js';
import { threeDsOperations } from './three-ds.js';

export const OPERATIONS: OperationDef[] = [
  ...paymentOperations,
  ...managementOperations,
  statusOperation,
  ...threeDsOperations,
];
