// Reads what a synthesis run left behind (stat -json, cell lists, ltp paths) into per-module resources, memories and logic depth.
import { classifyCell, type CellClass } from './cellTable.ts';
import type { SynthTarget } from './targets.ts';
import type { DesignClock } from '../emit/designClocks.ts';

export interface Resources {
  /** LUTs (Xilinx), ALUTs (Intel), LUT4s (ECP5, iCE40) or gates (generic). */
  readonly luts: number;
  readonly ffs: number;
  /** Block RAMs in the target's unit (RAMB36 tiles, M10Ks, DP16KDs, SB_RAM40_4Ks; generic: memories). */
  readonly brams: number;
  /** LUT-RAM and LUT shift-register cells. */
  readonly lutram: number;
  readonly dsps: number;
}

export const noResources: Resources = { luts: 0, ffs: 0, brams: 0, lutram: 0, dsps: 0 };

export interface LogicDepth {
  /** Cells on the longest combinational path (LUTs, carry and wide-mux cells), as `ltp` counts them. */
  readonly levels: number;
  /**
   * The most LUTs on one path that the measurement saw: on the longest path (carry and mux steps left
   * out: each is a fraction of a LUT's delay), on the longest path of LUTs alone, or on a submodule's
   * when that has more. A lower bound: a path of LUTs through a carry chain to more LUTs counts as
   * its longer LUT part.
   */
  readonly lutLevels: number;
  /** Carry (and wide-mux) cells on the longest path: the length of the carry chain it runs through. */
  readonly carryCells: number;
  /** The nets where the path starts and ends (a register, port or block-RAM output; a register or port input). */
  readonly from: string;
  readonly to: string;
}

export interface ModuleReport {
  readonly module: string;
  /** How many times the top contains it (1 for the top). */
  readonly instances: number;
  /** This module alone, its submodules left out. */
  readonly own: Resources;
  /** This module with everything below it. */
  readonly total: Resources;
  /** Submodule → instances of it in this module. */
  readonly children: Readonly<Record<string, number>>;
  /** Cells of this module alone by type. */
  readonly cells: Readonly<Record<string, number>>;
  /** Cell types the target's table does not know (a black box, or a table to extend). */
  readonly unknown: Readonly<Record<string, number>>;
  /** The module flattened with everything below it; undefined when not measured. */
  readonly depth?: LogicDepth;
}

export type MemoryMapping = 'block RAM' | 'LUT-RAM' | 'block RAM + LUT-RAM' | 'flip-flops';

export interface MemoryReport {
  readonly module: string;
  readonly memory: string;
  readonly mappedTo: MemoryMapping;
  /** Block RAMs (target units) and LUT-RAM cells it became, per instance of its module. */
  readonly brams: number;
  readonly lutram: number;
}

export interface SynthReport {
  readonly target: SynthTarget;
  readonly top: string;
  /** Top first, then the others in the order the hierarchy reaches them. */
  readonly modules: readonly ModuleReport[];
  readonly total: Resources;
  readonly memories: readonly MemoryReport[];
  /** Which Yosys ran and how long the whole run took. */
  readonly yosys: string;
  readonly elapsedMs: number;
  /**
   * The top's clocks as the design declares them, with the register bits of each edge read from the netlist
   * before synthesis (Yosys' flip-flops cannot be told apart by clock in a hierarchical netlist); absent when
   * the caller synthesized bare SystemVerilog.
   */
  readonly clocks?: readonly DesignClock[];
}

const stripId = (id: string) => id.replace(/^\\/, '');

function add(a: Resources, b: Resources, times = 1): Resources {
  return { luts: a.luts + times * b.luts, ffs: a.ffs + times * b.ffs, brams: a.brams + times * b.brams, lutram: a.lutram + times * b.lutram, dsps: a.dsps + times * b.dsps };
}

const columnOf: Partial<Record<CellClass, keyof Resources>> = { lut: 'luts', arith: 'luts', ff: 'ffs', bram: 'brams', lutram: 'lutram', dsp: 'dsps' };

/** Cells by type → resources and the types the table does not know. */
export function countCells(target: SynthTarget, cells: Readonly<Record<string, number>>): { resources: Resources; unknown: Record<string, number> } {
  const r: Record<keyof Resources, number> = { ...noResources };
  const unknown: Record<string, number> = {};
  for (const [type, n] of Object.entries(cells)) {
    const kind = classifyCell(target, type);
    if (!kind) unknown[type] = n;
    else {
      const column = columnOf[kind.cls];
      if (column) r[column] += n * kind.units;
    }
  }
  return { resources: r, unknown };
}

interface StatJson {
  readonly modules: Record<string, { readonly num_cells_by_type?: Record<string, number> }>;
}

/** Per-module reports from `stat -json` of the hierarchical netlist; depth is filled in separately. */
export function parseStat(target: SynthTarget, top: string, statJson: string): ModuleReport[] {
  // Yosys 0.23 prints the hierarchy summary as text lines (`Name  count`) inside the JSON: drop them.
  const stat = JSON.parse(statJson.split('\n').filter((l) => !/^\s*[^\s"{}[\]]+\s+\d+\s*$/.test(l)).join('\n')) as StatJson;
  const byName = new Map(Object.entries(stat.modules).map(([name, m]) => [stripId(name), m.num_cells_by_type ?? {}]));
  if (!byName.has(top)) throw new Error(`yosys statistics have no module '${top}' (modules: ${[...byName.keys()].join(', ')})`);
  const split = new Map<string, { cells: Record<string, number>; children: Record<string, number> }>();
  for (const [name, types] of byName) {
    const cells: Record<string, number> = {};
    const children: Record<string, number> = {};
    for (const [type, n] of Object.entries(types)) (byName.has(stripId(type)) ? children : cells)[stripId(type)] = n;
    split.set(name, { cells, children });
  }
  const totals = new Map<string, Resources>();
  const totalOf = (name: string): Resources => {
    let t = totals.get(name);
    if (!t) {
      const { cells, children } = split.get(name)!;
      t = Object.entries(children).reduce((acc, [child, n]) => add(acc, totalOf(child), n), countCells(target, cells).resources);
      totals.set(name, t);
    }
    return t;
  };
  // Instances in the top, breadth-first from it: the report lists modules in that order.
  const instances = new Map<string, number>([[top, 1]]);
  const order = [top];
  for (let i = 0; i < order.length; i++) {
    for (const [child, n] of Object.entries(split.get(order[i]!)!.children)) {
      if (!instances.has(child)) order.push(child);
      instances.set(child, (instances.get(child) ?? 0) + n * instances.get(order[i]!)!);
    }
  }
  return order.map((module) => {
    const { cells, children } = split.get(module)!;
    const { resources, unknown } = countCells(target, cells);
    return { module, instances: instances.get(module)!, own: resources, total: totalOf(module), children, cells, unknown };
  });
}

/** `select -list` output: `Module/object` lines → module → objects. */
export function parseSelectList(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const m = /^([^/\s]+)\/(.+)$/.exec(line.trim());
    if (!m) continue;
    const list = out.get(m[1]!) ?? [];
    list.push(m[2]!);
    out.set(m[1]!, list);
  }
  return out;
}

/**
 * Which memories became what: `memories` lists them as read (`Module/memory`), `memoryCells` the
 * block-RAM and LUT-RAM cells after mapping (`select -list`) by cell type pattern (Yosys names them `<memory>.<i>…`).
 * A memory with neither became flip-flops (or was optimized away).
 */
export function parseMemories(target: SynthTarget, memories: string, memoryCells: Map<string, string>): MemoryReport[] {
  const out: MemoryReport[] = [];
  const cellsByModule = new Map<string, { name: string; cls: CellClass; units: number }[]>();
  for (const [pattern, list] of memoryCells) {
    const kind = classifyCell(target, pattern.replace(/\*/g, ''));
    if (!kind) continue;
    for (const [module, names] of parseSelectList(list)) {
      const cells = cellsByModule.get(module) ?? [];
      for (const name of names) cells.push({ name, ...kind });
      cellsByModule.set(module, cells);
    }
  }
  for (const [module, names] of parseSelectList(memories)) {
    for (const memory of names) {
      const mine = (cellsByModule.get(module) ?? []).filter((c) => c.name === memory || c.name.startsWith(`${memory}.`));
      const brams = mine.filter((c) => c.cls === 'bram').reduce((s, c) => s + c.units, 0);
      const lutram = mine.filter((c) => c.cls === 'lutram').length;
      const mappedTo: MemoryMapping = brams && lutram ? 'block RAM + LUT-RAM' : brams ? 'block RAM' : lutram ? 'LUT-RAM' : 'flip-flops';
      out.push({ module, memory, mappedTo, brams, lutram });
    }
  }
  return out.sort((a, b) => a.module.localeCompare(b.module) || a.memory.localeCompare(b.memory));
}

/**
 * One `ltp` result per module (`Longest topological path in M (length=N):` and the path), with the
 * cells on it that are carry or mux steps (`fast`: module → cell names) subtracted for LUT levels.
 */
/** Per module, the length ltp reports (for the LUT-only measurement). */
export function parseLtpLengths(text: string): Map<string, number> {
  return new Map([...text.matchAll(/^Longest topological path in (\S+) \(length=(-?\d+)\):/gm)].map((m) => [m[1]!, Math.max(0, Number(m[2]))]));
}

export function parseLtp(text: string, fast: Map<string, string[]>, lutOnly: Map<string, number> = new Map()): Map<string, LogicDepth> {
  const out = new Map<string, LogicDepth>();
  const blocks = text.split(/^(?=Longest topological path in )/m).slice(1);
  for (const block of blocks) {
    const head = /^Longest topological path in (\S+) \(length=(-?\d+)\):/.exec(block);
    if (!head) continue;
    const module = head[1]!;
    const path = [...block.matchAll(/^\s+\d+: (.+?)(?: \(via (.+)\))?$/gm)].map((m) => ({ net: m[1]!, via: m[2] }));
    const fastCells = new Set(fast.get(module) ?? []);
    const levels = Math.max(0, Number(head[2]));
    const steps = path.filter((p) => p.via !== undefined && fastCells.has(p.via)).length;
    out.set(module, { levels, lutLevels: Math.max(levels - steps, lutOnly.get(module) ?? 0), carryCells: steps, from: path[0]?.net ?? '', to: path.at(-1)?.net ?? '' });
  }
  return out;
}

/** Depths with each module's LUT levels raised to its submodules' (their paths are inside it once flattened). */
export function withSubmoduleLutLevels(modules: readonly ModuleReport[]): ModuleReport[] {
  const byName = new Map(modules.map((m) => [m.module, m]));
  const memo = new Map<string, number>();
  const lutLevels = (name: string): number => {
    let n = memo.get(name);
    if (n === undefined) {
      const m = byName.get(name)!;
      n = Math.max(m.depth?.lutLevels ?? 0, ...Object.keys(m.children).map(lutLevels));
      memo.set(name, n);
    }
    return n;
  };
  return modules.map((m) => (m.depth ? { ...m, depth: { ...m.depth, lutLevels: lutLevels(m.module) } } : m));
}
