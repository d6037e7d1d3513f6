// Where a flattened net or memory (`tile0.core.pc`) lives in the emitted SystemVerilog: instance path and identifier.
import type { Design } from '../ir/netlist.ts';
import { findModule, topModule } from '../ir/netlist.ts';
import type { EmittedDesign } from './index.ts';

export interface SvName {
  /** SV identifiers of the instances from the top down, then the signal's own identifier. */
  readonly path: readonly string[];
  /** The module that declares it. */
  readonly module: string;
}

/**
 * Follows a hierarchical name of the flattened design (instance names joined by '.', as `flattenDesign`
 * writes them) through the emitted modules; null when some part is not an instance or a declared name.
 */
export function svName(design: Design, emitted: EmittedDesign, dotted: string): SvName | null {
  let mod = topModule(design);
  const parts = dotted.split('.');
  const path: string[] = [];
  for (const inst of parts.slice(0, -1)) {
    const next = mod.instances.find((i) => i.name === inst);
    const id = emitted.identifiers[mod.name]?.[inst];
    if (!next || id === undefined) return null;
    path.push(id);
    mod = findModule(design, next.module);
  }
  const id = emitted.identifiers[mod.name]?.[parts.at(-1)!];
  return id === undefined ? null : { path: [...path, id], module: mod.name };
}
