// The `when` nesting a module body is in: its path of conditions, the guard it amounts to, and the 1-bit expressions that combine conditions.
import type { SourceLoc } from '../ir/netlist.ts';
import { hdlError } from '../ir/diagnostics.ts';
import type { Expr, PathStep } from './ast.ts';
import { callerLocation } from './sourceLocation.ts';
import { Bool as BoolT } from './types.ts';
import { literalExpr, type Bits } from './values.ts';

/** `a && b` of two conditions: a `when` guard, an enable. */
export function guardAnd(a: Expr, b: Expr): Expr {
  return { kind: 'op', op: 'and', width: 1, args: [a, b], loc: b.loc, name: '_guard', generatedName: true };
}

/** `a || b` of two conditions: one `is` of a switch matching any of its values. */
export function matchOr(a: Expr, b: Expr): Expr {
  return { kind: 'op', op: 'or', width: 1, args: [a, b], loc: b.loc, name: '_match', generatedName: true };
}

/** `!a`: the branch of a `when` not taken. */
export function elseNot(a: Expr): Expr {
  return { kind: 'op', op: 'not', width: 1, args: [a], loc: a.loc, name: '_else', generatedName: true };
}

/** The 1-bit expression of a `when` condition (a boolean is a constant). */
export function conditionExpr(cond: Bits | boolean): Expr {
  const loc: SourceLoc = callerLocation();
  if (typeof cond === 'boolean') return literalExpr(cond, BoolT, loc);
  if (cond.width !== 1) throw hdlError('WidthMismatch', `a condition must be 1 bit, got ${cond.width} bits (compare with .ne(0) or reduce with .orR())`, loc);
  return cond.expr;
}

/** The active `when` path of one module body; assignments, memory ports and properties read it. */
export class WhenPath {
  #steps: PathStep[] = [];
  #guard: Expr | null = null;

  /** The active path, as an assignment keeps it. */
  snapshot(): PathStep[] {
    return [...this.#steps];
  }

  /** Runs `body` with `steps` added to the active path. */
  under<R>(steps: readonly PathStep[], body: () => R): R {
    return this.#with([...this.#steps, ...steps], body);
  }

  /** Runs `body` as if outside every `when` (what it declares and assigns is unconditional). */
  outside<R>(body: () => R): R {
    return this.#with([], body);
  }

  /** The conjunction of the active path, or null outside any `when` (memory ports use it as enable). */
  guard(): Expr | null {
    if (this.#steps.length === 0) return null;
    this.#guard ??= this.#steps.map((s) => (s.pos ? s.cond : elseNot(s.cond))).reduce(guardAnd);
    return this.#guard;
  }

  #with<R>(steps: PathStep[], body: () => R): R {
    const saved = this.#steps;
    this.#steps = steps;
    this.#guard = null;
    try {
      return body();
    } finally {
      this.#steps = saved;
      this.#guard = null;
    }
  }
}
