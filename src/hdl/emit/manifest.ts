// The machine-readable summary of an emitted design, read from the netlist: per module its file, parameters, ports and memories; the top's clocks.
import { basename } from 'node:path';
import type { Design, ModuleIR } from '../ir/netlist.ts';
import { findModule } from '../ir/netlist.ts';
import { paramsKey } from '../elaborate/variantName.ts';
import { svInterface, svModuleName } from './blackBoxes.ts';
import { hexFileName } from './memoryImage.ts';
import { designClocks, type DesignClock } from './designClocks.ts';

/** A clock input of the top: its name, period (where the design gives one), edges, resets, register bits per edge and memories. */
export type ManifestClock = DesignClock;

export interface ManifestTiming {
  /** The top's clock inputs in port order (the implicit `clk` included; none for a combinational design). */
  readonly clocks: readonly ManifestClock[];
  /** The timing constraints' file (`<top>.sdc`) relative to the manifest's directory, when one was written. */
  readonly timingConstraints?: string;
}

/** What the synthesis handoff needs to constrain the design's timing: its clocks and where their constraints are. */
export function manifestTiming(design: Design, timingConstraints?: string): ManifestTiming {
  return { clocks: designClocks(design), ...(timingConstraints !== undefined ? { timingConstraints } : {}) };
}

export interface ManifestPort {
  readonly name: string;
  readonly direction: 'input' | 'output';
  readonly width: number;
}

export interface ManifestMemory {
  readonly name: string;
  readonly width: number;
  readonly depth: number;
  /** The `$readmemh` image, relative to the manifest's directory; absent when the memory powers on as zeros. */
  readonly init?: string;
}

/** A module written in Verilog by the user: its files and the parameter overrides of its instances. */
export interface ManifestBlackBox {
  /** Relative to the manifest's directory, the one defining the module first. */
  readonly sources: readonly string[];
  /** Verilog parameter overrides (`#(.WIDTH(16))`); bigints as text. */
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface ManifestModule {
  /** The SystemVerilog module name (a black box's Verilog name: one entry per parameterization). */
  readonly name: string;
  /** Relative to the manifest's directory (a black box's first source). */
  readonly file: string;
  /** The parameters the module was elaborated with (encoded in its name); bigints and functions as text. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** As the SystemVerilog declares them: the implicit `clk` first (clocked modules), then the netlist's ports. */
  readonly ports: readonly ManifestPort[];
  readonly memories: readonly ManifestMemory[];
  /** Modules it instantiates, in order of first use. */
  readonly submodules: readonly string[];
  /** Present for a black box. */
  readonly blackBox?: ManifestBlackBox;
}

/** Every module of `design` in dependency order (children first), its files under `dir` (e.g. `rtgpu_top`). */
export function manifestModules(design: Design, dir: string): ManifestModule[] {
  return design.modules.map((m) => ({
    name: svModuleName(m),
    file: m.blackBox ? `${dir}/${basename(m.blackBox.sources[0]!.path)}` : `${dir}/${m.name}.sv`,
    parameters: jsonSafe(m.params),
    ports: manifestPorts(m),
    memories: m.memories.map((mem) => ({
      name: mem.name,
      width: mem.width,
      depth: mem.depth,
      ...(mem.init ? { init: `${dir}/${hexFileName(m.name, mem.name)}` } : {}),
    })),
    submodules: [...new Set(m.instances.map((i) => svModuleName(findModule(design, i.module))))],
    ...(m.blackBox ? { blackBox: { sources: m.blackBox.sources.map((s) => `${dir}/${basename(s.path)}`), parameters: jsonSafe(m.blackBox.parameters) } } : {}),
  }));
}

/** paramsKey is the text a variant name is derived from: sorted keys, JSON-safe values. */
function jsonSafe(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return JSON.parse(paramsKey(values) || '{}') as Record<string, unknown>;
}

function manifestPorts(m: ModuleIR): ManifestPort[] {
  // Named as instances connect them (clock first, generated names escaped), so names match the SystemVerilog.
  const sv = svInterface(m);
  const ports = m.ports.map((id) => {
    const n = m.nets[id]!;
    return { name: sv.port(n.name), direction: n.kind === 'input' ? 'input' : 'output', width: n.width } as const;
  });
  return [...sv.clocks.map((c) => ({ name: c.port, direction: 'input', width: 1 }) as const), ...ports];
}
