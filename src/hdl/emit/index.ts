// The SystemVerilog back end: one file per module (children first) plus memory images and the black boxes' Verilog sources.
import type { Design } from '../ir/netlist.ts';
import { topModule } from '../ir/netlist.ts';
import type { PowerOnValues } from '../ir/powerOn.ts';
import { blackBoxSourceFiles } from './blackBoxes.ts';
import { emitModule } from './emitModule.ts';
import { emitNetlistModule } from './emitNetlistModule.ts';
import { blackBoxTimescale, lintWaivers, type LintWaivers } from './lintWaivers.ts';
import { timingConstraints, timingConstraintsFile } from './timingConstraints.ts';

export { unwaivedIcarusOutput, type LintWaivers } from './lintWaivers.ts';

export { legalizeIdentifier } from './identifiers.ts';

export interface EmittedFile {
  /** Relative to the output directory: `Counter.sv`, `Rom_mem.hex`. */
  readonly path: string;
  readonly text: string;
}

export interface EmittedDesign {
  readonly files: EmittedFile[];
  /** The black boxes' Verilog sources, then the .sv files in dependency order (children first, top last). */
  readonly fileList: string[];
  /** Module name -> net name -> 1-based line in that module's file where the net is declared or driven. */
  readonly lines: Record<string, Record<string, number>>;
  /** Module name -> net, memory or instance name -> its SystemVerilog identifier. */
  readonly identifiers: Record<string, Record<string, string>>;
  /** The black boxes' lint waivers (the Verilator configuration is one of `files`). */
  readonly lintWaivers: LintWaivers;
  /** The timing constraints' file (`<top>.sdc`, one of `files`), when written. */
  readonly timingConstraints?: string;
}

export interface EmitOptions {
  /** The reset check (simulation only): registers with a reset power on at these seeded values in the initial blocks (src/hdl/ir/powerOn.ts). */
  readonly resetCheckSeed?: number;
  /**
   * Power-on values of the initial blocks (simulation only) that replace init and the reset check's: the
   * simulators use them for registers an asynchronous reset from logic holds at power-on (resetAtPowerOn).
   */
  readonly powerOnValues?: PowerOnValues;
  /**
   * `readable` (default): named nets, single-use expressions inlined, `when`/`switch` as always_comb/always_ff
   * with if/case, enums as typedefs. `netlist`: one assign per netlist cell, the reference the readable
   * output is checked equivalent to (and a view of exactly what the simulator runs).
   */
  readonly style?: 'readable' | 'netlist';
  /**
   * Write `<top>.sdc` (timingConstraints.ts) when the top has a clock. Default: only when the top declares its
   * clocks (`input(Clock)`), so that designs on the implicit `clk` emit the files they always did.
   */
  readonly timingConstraints?: boolean;
}

/** Black boxes are not emitted: their Verilog sources come first in the files and the file list. */
export function emitSystemVerilog(design: Design, opts: EmitOptions = {}): EmittedDesign {
  const emit = opts.style === 'netlist' ? emitNetlistModule : emitModule;
  const files: EmittedFile[] = [];
  const fileList: string[] = [];
  const lines: Record<string, Record<string, number>> = {};
  const identifiers: Record<string, Record<string, string>> = {};
  const timescale = blackBoxTimescale(design);
  for (const mod of design.modules.filter((m) => !m.blackBox)) {
    const e = emit(design, mod, { resetCheckSeed: opts.resetCheckSeed, values: opts.powerOnValues });
    // The directive opens the file: every line the table gives moves down by one.
    const text = timescale ? `\`timescale ${timescale} // as the black-box sources declare\n${e.text}` : e.text;
    files.push({ path: `${mod.name}.sv`, text }, ...e.hexFiles);
    fileList.push(`${mod.name}.sv`);
    lines[mod.name] = timescale ? Object.fromEntries(Object.entries(e.lines).map(([k, v]) => [k, v + 1])) : e.lines;
    identifiers[mod.name] = e.identifiers;
  }
  const sources = blackBoxSourceFiles(design, files);
  const { waivers, configText } = lintWaivers(design);
  const config = waivers.verilatorConfig && configText !== undefined ? [{ path: waivers.verilatorConfig, text: configText }] : [];
  const sdc = (opts.timingConstraints ?? topModule(design).clocks !== undefined) ? timingConstraints(design) : undefined;
  const constraints = sdc === undefined ? [] : [{ path: timingConstraintsFile(design), text: sdc }];
  return {
    files: [...sources, ...files, ...constraints, ...config],
    fileList: [...sources.map((f) => f.path), ...fileList],
    lines,
    identifiers,
    lintWaivers: waivers,
    ...(constraints.length ? { timingConstraints: constraints[0]!.path } : {}),
  };
}
