// The stack of modules under elaboration: DSL calls that assign or declare act on the innermost one.
import type { SourceLoc } from '../ir/netlist.ts';
import { hdlError } from '../ir/diagnostics.ts';
import type { Expr, Sig, SigOwner } from './ast.ts';

export interface BuildContext extends SigOwner {
  /** Record `sig = value` under the currently active conditions. */
  assign(sig: Sig, value: Expr, loc: SourceLoc): void;
  /** Run `body` with `cond` added to the active conditions. */
  under(cond: Expr, body: () => void): void;
}

const stack: BuildContext[] = [];

export function pushContext(ctx: BuildContext): void {
  stack.push(ctx);
}

export function popContext(ctx: BuildContext): void {
  if (stack.pop() !== ctx) throw new Error('internal: module context stack out of order');
}

export function currentContext(loc: SourceLoc, what: string): BuildContext {
  const ctx = stack[stack.length - 1];
  if (!ctx) throw hdlError('OutsideModule', `${what} must be called while a module is being elaborated`, loc);
  return ctx;
}
