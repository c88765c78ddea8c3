/** The merchant resources beyond sessions and orders, one file each. */
import type { Context } from '../context.js';
import type { RouteTable } from './route-spec.js';

export function extraRoutes(_ctx: Context, _routes: RouteTable): void {}
