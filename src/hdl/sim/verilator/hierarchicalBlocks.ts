// Which modules Verilator verilates once as hierarchical blocks, instead of once per instance.
//
// Verilator 5.006 schedules every instance's logic separately, so a module placed 60 times (a float
// multiplier) is 60 copies of its C++: the BVH8 IC system is 36 MB of C++, rtgpu_top 19 MB. A hierarchical
// block (`hier_block`, `--hierarchical`) is verilated and compiled once and called per instance. Node
// reaches nothing inside one, so a module holding a signal or memory it peeks or pokes is not a block.
import type { Design, ModuleIR } from '../../ir/netlist.ts';
import type { ExternalDesign } from '../external/externalDesign.ts';
import { verilatorCxxOptimization } from '../../tools/verilatorCompile.ts';

/**
 * Whether blocks pay, for `hierarchical: 'auto'`: they do when the C++ is optimized (rtgpu_top at -O2
 * builds in 67 s against 253 s flat, and runs 1.8x slower); at -O0 (RTGPU_VERILATOR_OPT=0, the test
 * suite's level) the precompiled header already makes the flat build cheap, and blocks ran 3.6x slower.
 */
export const hierarchicalPays = (): boolean => verilatorCxxOptimization() !== '-O0';

/** A module placed fewer times than this stays inlined: its copies cost less than a block's call. */
const MIN_INSTANCES = 4;

/** The modules to verilate as hierarchical blocks (SV module names, sorted): none when Node probes registers. */
export function hierarchicalBlocks(x: ExternalDesign): string[] {
  if (x.registers) return [];
  const byName = new Map(x.design.modules.map((m) => [m.name, m]));
  const reached = new Set([...x.memories.map((m) => m.sv.module), ...x.signals.filter((s) => !s.isPort).map((s) => s.sv.module)]);
  const known = new Map<string, boolean>();
  const opaque = (m: ModuleIR): boolean => {
    if (!known.has(m.name)) known.set(m.name, !m.blackBox && !reached.has(m.name) && m.instances.every((i) => opaque(byName.get(i.module)!)));
    return known.get(m.name)!;
  };
  const placed = instanceCounts(x.design, byName);
  return [...placed]
    .filter(([name, n]) => n >= MIN_INSTANCES && name !== x.design.top && opaque(byName.get(name)!))
    .map(([name]) => name)
    .sort();
}

/** How many times each module is placed in the whole hierarchy. */
function instanceCounts(design: Design, byName: ReadonlyMap<string, ModuleIR>): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (name: string, times: number): void => {
    counts.set(name, (counts.get(name) ?? 0) + times);
    for (const i of byName.get(name)!.instances) visit(i.module, times);
  };
  visit(design.top, 1);
  return counts;
}

/** The Verilator configuration file that marks `blocks` (empty: no file is needed). */
export function hierarchicalBlocksConfig(blocks: readonly string[]): string {
  return ['`verilator_config', ...blocks.map((b) => `hier_block -module ${JSON.stringify(b)}`)].join('\n') + '\n';
}
