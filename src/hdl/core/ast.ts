// The abstract syntax the builder records: expressions, declared signals and their guarded assignments.
import type { CellOp, EnumInfo, SourceLoc } from '../ir/netlist.ts';

export type Expr = ConstExpr | SigExpr | OpExpr;

export interface ConstExpr {
  readonly kind: 'const';
  readonly width: number;
  readonly value: bigint;
  readonly loc: SourceLoc;
}

export interface SigExpr {
  readonly kind: 'sig';
  readonly width: number;
  readonly sig: Sig;
  readonly loc: SourceLoc;
}

/** An operator application; `args` follow the operand order of the netlist cell (mux: sel, a, b). */
export interface OpExpr {
  readonly kind: 'op';
  readonly op: Exclude<CellOp, 'const'>;
  readonly width: number;
  readonly args: readonly Expr[];
  /** slice: lowest bit taken. */
  readonly lo?: number;
  readonly loc: SourceLoc;
  /** A name given with `.named()`; otherwise one is inferred from the source. */
  name?: string;
  /** `name` was chosen by the builder, not the user (emitters may inline the result). */
  readonly generatedName?: boolean;
}

/**
 * Kinds of declared signal:
 * input/output: ports of the module being built; wire/reg: internal; memread: a memory read port's data;
 * childin/childout: a submodule instance's ports as the parent sees them.
 */
export type SigKind = 'input' | 'output' | 'wire' | 'reg' | 'memread' | 'childin' | 'childout';

/** One step of the `when` nesting an assignment sits in: condition `cond` taken (pos) or not taken. */
export interface PathStep {
  readonly cond: Expr;
  readonly pos: boolean;
}

/** `set()` under the `when` path active at the call (empty path: unconditional). */
export interface Assignment {
  readonly value: Expr;
  readonly path: readonly PathStep[];
  readonly loc: SourceLoc;
}

export interface RegSpec {
  readonly reset?: bigint;
  readonly async: boolean;
  readonly init?: bigint;
  readonly enable?: Expr;
  /** Its clock domain (a ClockDomain; typed loosely to keep this file free of the builder's types). */
  readonly domain: ClockDomainRef;
  readonly synchronizer: boolean;
}

/** What lowering reads of a clock domain. */
export interface ClockDomainRef {
  readonly implicit: boolean;
  readonly clockName: string;
  readonly edge: 'rising' | 'falling';
  readonly reset: { readonly expr: Expr; readonly kind: 'sync' | 'async'; readonly activeHigh: boolean } | undefined;
}

/** Owner identity is opaque here; the module builder compares it. */
export interface SigOwner {
  readonly moduleName: string;
}

export class Sig {
  readonly assignments: Assignment[] = [];
  /** Value of a wire/output when no assignment applies. */
  defaultValue?: Expr;
  reg?: RegSpec;
  /** childin/childout: which instance and port. */
  instance?: { readonly name: () => string; readonly port: string };
  /** For a leaf of an aggregate wire/register: its field path (names the leaf, selects aggregate defaults). */
  pathSuffix?: readonly string[];

  constructor(
    readonly kind: SigKind,
    readonly width: number,
    readonly owner: SigOwner,
    readonly loc: SourceLoc,
    /** Explicit or path-derived name; otherwise resolved from the source when lowering. */
    public name: string | undefined,
    readonly signed: boolean,
    readonly enumType?: EnumInfo,
  ) {}

  get assignable(): boolean {
    return this.kind === 'output' || this.kind === 'wire' || this.kind === 'reg' || this.kind === 'childin';
  }
}

/** The signal a signal expression reads (a value the builder has just declared). */
export function sigOf(e: Expr): Sig {
  if (e.kind !== 'sig') throw new Error(`internal: expected a signal, got a ${e.kind} expression`);
  return e.sig;
}
