// Elaborates a module definition and everything it instantiates into a checked netlist Design.
import type { Design, ModuleIR, SourceLoc } from '../ir/netlist.ts';
import { HdlError, hdlError, type Diagnostic } from '../ir/diagnostics.ts';
import { flattenDesign } from '../ir/flatten.ts';
import { findCombinationalLoop } from '../ir/combinationalLoops.ts';
import { findClockDomainCrossings } from '../ir/clockDomainCrossings.ts';
import { buildModule, type ModuleBuilder, type ModuleDef, type ModuleElaborator, type Params } from '../core/module.ts';
import type { ElaboratedModule } from '../core/moduleFragment.ts';
import type { PortSpecs } from '../core/ports.ts';
import { ClockSignal } from '../core/clockDomain.ts';
import { storeInferredNames } from '../core/naming.ts';
import { zipLeaves, type HValue } from '../core/aggregates.ts';
import { atLocation } from '../core/sourceLocation.ts';
import { isBlackBox } from '../core/blackBox.ts';
import { completeBlackBox } from './blackBox.ts';
import { lowerModule } from './lower.ts';
import { moduleVariantName, paramsKey } from './variantName.ts';

export interface Elaboration {
  readonly design: Design;
  /** Warnings (errors are thrown as HdlError). */
  readonly warnings: readonly Diagnostic[];
}

export interface ElaborateOptions {
  /** The top module's SystemVerilog name, instead of the name derived from its parameters. */
  readonly topName?: string;
  /** Checkers bound to modules of the design (as SystemVerilog's `bind`), without changing their source. */
  readonly bind?: readonly CheckerBinding[];
}

/**
 * A checker module bound to every instance of `module`: instantiated inside it, each of its inputs
 * connected to the module's port of the same name (a checker has inputs only, and its properties).
 */
export interface CheckerBinding {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly module: ModuleDef<any, any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly checker: ModuleDef<any, any>;
  /** The checker's parameters, or a function of the bound module's parameters. */
  readonly params?: unknown;
  /** Its instance name in the module (default `<checker>_bound`). */
  readonly name?: string;
}

/** Elaborate `def` with `params` as the top module. Throws HdlError listing every error found. */
export function elaborate<P extends Params, S extends PortSpecs>(def: ModuleDef<P, S>, params: P, opts: ElaborateOptions = {}): Elaboration {
  if (opts.topName !== undefined && !/^[A-Za-z][A-Za-z0-9_]*$/.test(opts.topName)) throw new HdlError([{ code: 'InvalidArgument', severity: 'error', message: `top name '${opts.topName}' is not an identifier`, loc: def.loc }]);
  if (isBlackBox(def)) throw hdlError('InvalidArgument', `black box '${def.name}' cannot be the top of a design: instantiate it in a module`, def.loc);
  const session = new Session(opts.topName, opts.bind ?? []);
  try {
    const top = session.elaborateChild(def, params, def.loc);
    const design: Design = { top: top.ir.name, modules: session.order };
    session.checkFlat(design);
    return { design, warnings: session.warnings };
  } finally {
    // Names found in source files are kept for the next elaboration, also of a design that failed.
    storeInferredNames();
  }
}

class Session implements ModuleElaborator {
  readonly order: ModuleIR[] = [];
  readonly warnings: Diagnostic[] = [];
  private readonly done = new Map<string, ElaboratedModule>();
  private readonly nameOwner = new Map<string, string>();
  private readonly active = new Set<string>();

  /** `topName` names the first module elaborated (the top). */
  constructor(
    private topName: string | undefined,
    private readonly bindings: readonly CheckerBinding[],
  ) {}

  elaborateChild(def: ModuleDef<any, any>, params: unknown, loc: SourceLoc): ElaboratedModule {
    const p = (params ?? {}) as Record<string, unknown>;
    const key = `${def.name}\u0000${paramsKey(p)}`;
    const hit = this.done.get(key);
    if (hit) return hit;
    if (this.active.has(key)) throw new HdlError([{ code: 'InvalidArgument', severity: 'error', message: `module ${def.name} instantiates itself`, loc }]);
    this.active.add(key);
    let name = this.topName ?? moduleVariantName(def.name, p);
    this.topName = undefined;
    const owner = this.nameOwner.get(name);
    if (owner !== undefined && owner !== key) name = `${name}_${this.nameOwner.size}`;
    this.nameOwner.set(name, key);

    const blackBox = isBlackBox(def);
    const fragment = buildModule(name, def.loc, this, blackBox, (b) => {
      const io = b.ports(def.ports(params as never), def.loc);
      def.body(b, io, params as never);
      for (const binding of this.bindings.filter((x) => x.module === def)) bindChecker(b, io as Record<string, unknown>, binding, params);
    });
    const { ir: lowered, diagnostics } = lowerModule(fragment, name, p, (m) => this.order.find((x) => x.name === m)?.clocked ?? false, blackBox);
    const errors = diagnostics.filter((d) => d.severity === 'error');
    if (errors.length) throw new HdlError(errors);
    this.warnings.push(...diagnostics.filter((d) => d.severity === 'warning'));
    const ir = blackBox ? completeBlackBox(lowered, def, params, (model, q) => this.elaborateModel(model, q)) : lowered;
    const rec: ElaboratedModule = { ir, specs: def.ports(params as never) };
    this.order.push(ir);
    this.done.set(key, rec);
    this.active.delete(key);
    return rec;
  }

  /** A black box's model, as the top of a design of its own. */
  private elaborateModel(model: ModuleDef<any, any>, params: unknown): Design {
    const e = elaborate(model, params as Params);
    this.warnings.push(...e.warnings);
    return e.design;
  }

  /** The checks of the whole design: combinational loops, then clock-domain crossings. */
  checkFlat(design: Design): void {
    const flat = flattenDesign(design);
    this.checkLoops(flat);
    const crossings = findClockDomainCrossings(flat);
    if (crossings.length) throw new HdlError(crossings);
  }

  private checkLoops(flat: ModuleIR): void {
    const loop = findCombinationalLoop(flat);
    if (!loop) return;
    const nets = loop.map((n) => flat.nets[n]!);
    const path = [...nets, nets[0]!].map((n) => n.name).join(' -> ');
    throw new HdlError([
      {
        code: 'CombinationalLoop',
        severity: 'error',
        message: `combinational loop: ${path}`,
        loc: nets[0]!.loc,
        notes: nets.map((n) => ({ message: `'${n.name}' is on the loop`, loc: n.loc })),
      },
    ]);
  }
}

/** Instantiates a bound checker in module `b`, its inputs driven by `io`'s ports of the same names. */
function bindChecker(b: ModuleBuilder, io: Record<string, unknown>, binding: CheckerBinding, moduleParams: unknown): void {
  const params = typeof binding.params === 'function' ? (binding.params as (p: unknown) => unknown)(moduleParams) : binding.params;
  const where = binding.checker.loc;
  if (isBlackBox(binding.module)) throw hdlError('InvalidArgument', `a checker cannot be bound to black box '${binding.module.name}': its Verilog is not ours to add to`, where);
  atLocation(where, () => {
    const inst = b.instance(binding.checker, params as never, { name: binding.name ?? `${binding.checker.name}_bound` });
    for (const [name, spec] of Object.entries(binding.checker.ports(params as never) as PortSpecs)) {
      if (spec.dir !== 'input') throw hdlError('InvalidArgument', `checker ${binding.checker.name} has the output '${name}': a bound checker only reads (inputs and properties)`, where);
      if (!(name in io)) throw hdlError('InvalidArgument', `checker ${binding.checker.name} reads '${name}', which module ${b.moduleName} has no port of`, where);
      const port = (inst.io as Record<string, unknown>)[name];
      if (port instanceof ClockSignal) port.set(io[name] as ClockSignal);
      else
        zipLeaves(port as HValue, io[name] as HValue, (dst, src, flipped, path) => {
          if (flipped) throw hdlError('InvalidArgument', `checker ${binding.checker.name}: '${name}${path ? `.${path}` : ''}' points out of the checker (a flipped field); declare the checker's port with every field an input`, where);
          dst.set(src);
        });
    }
  });
}
