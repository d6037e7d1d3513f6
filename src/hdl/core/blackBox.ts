// Black boxes: modules written in Verilog, declared by their ports and instantiated like eDSL modules.
import { dirname, resolve } from 'node:path';
import { hdlError } from '../ir/diagnostics.ts';
import type { SourceLoc, VerilogParameterValue } from '../ir/netlist.ts';
import { fragmentOf, type ModuleBuilder, type ModuleDef, type Params } from './module.ts';
import type { PortSpecs } from './ports.ts';
import { callerLocation } from './sourceLocation.ts';
import { checkOptions } from './options.ts';

export interface BlackBoxOptions<P extends Params> {
  /**
   * The Verilog files, the one that defines the module first: relative to the file that calls
   * `defineBlackBox`, or absolute. They are read at elaboration and emitted with the design.
   */
  readonly sources: readonly string[];
  /** The parameter overrides of an instance with parameters `p` (`{ WIDTH: p.width }` → `#(.WIDTH(16))`). */
  readonly parameters?: (p: P) => Readonly<Record<string, VerilogParameterValue>>;
  /** The name of the module's clock input, connected to the domain's clock (default: none). For several clocks, declare them as Clock ports in its port list instead. */
  readonly clock?: string;
  /** The name of its reset input, connected to the design's reset (default: none). */
  readonly reset?: string;
  /**
   * The level that resets it (default 'low': `rst_n` itself). 'high', as most vendor IP has, connects
   * the inverted reset (`.rst(!rst_n)`); either way the model sees `rst_n`.
   */
  readonly resetActive?: 'low' | 'high';
  /**
   * Lint findings of its Verilog sources to accept, in those files only (never in generated code):
   * Verilator rule names (`'UNUSEDSIGNAL'`, `'WIDTH'`, …) and texts of Icarus warnings (Icarus names no rules).
   */
  readonly lintWaivers?: { readonly verilator?: readonly string[]; readonly icarus?: readonly string[] };
  /**
   * An eDSL module with the same ports (and the implicit `rst_n` only if the black box has a reset), which the
   * TS simulator runs in the black box's place, elaborated with the same parameters.
   */
  readonly model?: ModuleDef<P, any>;
}

/** The Verilog side of a black box, as elaboration reads it. */
export interface BlackBoxSpec<P extends Params> extends Omit<BlackBoxOptions<P>, 'sources'> {
  readonly verilogName: string;
  /** Absolute paths. */
  readonly sources: readonly string[];
}

/** A module definition whose body is Verilog: usable wherever a ModuleDef is, except as the top of a design. */
export interface BlackBoxDef<P extends Params, S extends PortSpecs> extends ModuleDef<P, S> {
  readonly blackBox: BlackBoxSpec<P>;
}

const verilogIdentifier = /^[A-Za-z_][A-Za-z0-9_$]*$/;

export function isVerilogIdentifier(name: string): boolean {
  return verilogIdentifier.test(name);
}

/**
 * Declare the Verilog module `verilogName`: `ports(p)` gives its interface, as for `defineModule`. An instance
 * (`m.instance(Def, params)`) becomes `verilogName #(parameters) name (…)` in the emitted SystemVerilog.
 */
export function defineBlackBox<P extends Params, S extends PortSpecs>(verilogName: string, ports: (p: P) => S, opts: BlackBoxOptions<P>): BlackBoxDef<P, S> {
  const loc = callerLocation();
  checkOptions(`defineBlackBox('${verilogName}')`, opts, ['sources', 'parameters', 'clock', 'reset', 'resetActive', 'model', 'lintWaivers'], loc);
  checkNames(verilogName, opts, loc);
  if (opts.sources.length === 0) throw hdlError('InvalidArgument', `black box '${verilogName}' needs the Verilog file that defines it ({ sources })`, loc);
  const sources = opts.sources.map((s) => resolve(dirname(loc.file), s));
  const body = (m: ModuleBuilder) => {
    // The reset is a port of the black box; declaring it makes instances connect it, as for a module that uses it.
    if (opts.reset !== undefined) fragmentOf(m).useReset();
  };
  return { name: verilogName, ports, body, loc, blackBox: { ...opts, verilogName, sources } };
}

export function isBlackBox(def: ModuleDef<any, any>): def is BlackBoxDef<any, any> {
  return 'blackBox' in def;
}

function checkNames(verilogName: string, opts: BlackBoxOptions<any>, loc: SourceLoc): void {
  const named = [['module name', verilogName], ['clock', opts.clock], ['reset', opts.reset]] as const;
  for (const [what, name] of named) {
    if (name !== undefined && !isVerilogIdentifier(name)) throw hdlError('InvalidArgument', `black box ${what} '${name}' is not a Verilog identifier`, loc);
  }
  if (opts.resetActive !== undefined && opts.resetActive !== 'low' && opts.resetActive !== 'high') throw hdlError('InvalidArgument', `black box '${verilogName}': resetActive must be 'low' or 'high', got ${JSON.stringify(opts.resetActive)}`, loc);
  if (opts.resetActive !== undefined && opts.reset === undefined) throw hdlError('InvalidArgument', `black box '${verilogName}' gives resetActive but no reset port ({ reset: 'rst' })`, loc);
  if (opts.clock !== undefined && opts.clock === opts.reset) throw hdlError('InvalidArgument', `black box '${verilogName}' names '${opts.clock}' as both its clock and its reset`, loc);
}
