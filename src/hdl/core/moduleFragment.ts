// What a module body records, as elaboration lowers it: signals, ports, memories, instances, properties (the builder is the user's view of it).
import type { ModuleIR, SourceLoc } from '../ir/netlist.ts';
import { hdlError } from '../ir/diagnostics.ts';
import { Sig, sigOf, type Expr, type SigKind } from './ast.ts';
import type { ClockDomain, ClockSignal } from './clockDomain.ts';
import type { BuildContext } from './context.ts';
import type { MemoryRecord } from './memory.ts';
import type { PortSpecs } from './ports.ts';
import type { PropertyRecord } from './properties.ts';
import { Bool as BoolT, type GroundType } from './types.ts';
import { wrap, type Bits } from './values.ts';
import { WhenPath } from './whenPath.ts';

/** What elaborating one parameterization produced; instances read the child's IR and port specs. */
export interface ElaboratedModule {
  readonly ir: ModuleIR;
  readonly specs: PortSpecs;
}

export interface InstanceRecord {
  readonly nameHint: string | undefined;
  readonly loc: SourceLoc;
  readonly child: ElaboratedModule;
  /** Child port name -> the parent-side signal for it. */
  readonly ports: ReadonlyMap<string, Sig>;
  /** Child clock input -> the parent-side clock signal for it (driven with `set`, else by `domain`'s clock). */
  readonly clocks: ReadonlyMap<string, ClockSignal>;
  /**
   * The domain in effect at the instance: it clocks the child's clock inputs nobody drives, and resets an
   * implicit `rst_n`. Undefined where none is (several clocks, no domain chosen): every clock input must then be driven.
   */
  readonly domain: ClockDomain | undefined;
  /** Chosen by lowering. */
  name?: string;
}

/**
 * One module's record, filled while its body runs and read by lowering afterwards. It owns the module's
 * signals and clock domains (their `owner`) and is the build context `set()` records assignments in.
 */
export class ModuleFragment implements BuildContext {
  /** Every signal, in declaration order (which orders the names lowering gives them). */
  readonly sigs: Sig[] = [];
  readonly portSigs: { readonly path: string; readonly sig: Sig }[] = [];
  readonly memories: MemoryRecord[] = [];
  readonly instances: InstanceRecord[] = [];
  /** Signals marked with unused(): no UnusedInput warning. */
  readonly unusedSigs = new Set<Sig>();
  /** Its Clock input ports, each with the number of data ports declared before it. */
  readonly clockPorts: { readonly sig: ClockSignal; readonly portIndex: number }[] = [];
  /** Clock inputs marked with unused(): no UnusedInput warning when nothing is clocked by them. */
  readonly unusedClocks = new Set<string>();
  /** Wires declared with `crossDomain`: reason. */
  readonly falsePaths = new Map<Sig, string>();
  /** Assertions, assumptions and cover points, in declaration order. */
  readonly properties: PropertyRecord[] = [];
  /** The implicit active-low reset input, once something uses it. */
  resetSig: Sig | undefined;
  /** The `when` nesting the body is in now. */
  readonly when = new WhenPath();

  constructor(
    readonly moduleName: string,
    readonly loc: SourceLoc,
  ) {}

  /** A new signal of this module for one ground leaf, as a value of type `t`; `setup` completes it before it is recorded. */
  leaf(kind: SigKind, t: GroundType, loc: SourceLoc, name?: string, setup?: (sig: Sig) => void): Bits {
    const sig = new Sig(kind, t.width, this, loc, name, t.kind === 'sint', t.kind === 'enum' ? t.info : undefined);
    setup?.(sig);
    this.sigs.push(sig);
    return wrap({ kind: 'sig', width: t.width, sig, loc }, t);
  }

  /** The implicit active-low reset input, created on first use. */
  useReset(): Sig {
    this.resetSig ??= sigOf(this.leaf('input', BoolT, this.loc, 'rst_n').expr);
    return this.resetSig;
  }

  // -------- BuildContext

  assign(sig: Sig, value: Expr, loc: SourceLoc): void {
    if (sig.owner !== this) {
      throw hdlError('CrossModuleReference', `this signal belongs to module ${sig.owner.moduleName}, not ${this.moduleName}; pass values through ports`, loc);
    }
    sig.assignments.push({ value, path: this.when.snapshot(), loc });
  }

  under(cond: Expr, body: () => void): void {
    this.when.under([{ cond, pos: true }], body);
  }
}
