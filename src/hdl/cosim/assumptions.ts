// A design's assumptions (m.assume) as a check on the inputs of the current cycle, for random stimulus to draw again against.
import { flattenDesign } from '../ir/flatten.ts';
import type { Design, ModuleIR } from '../ir/netlist.ts';
import type { LockstepSimulator, Simulator } from '../sim/index.ts';

/**
 * Whether every enabled assumption of `design` holds on `engine` now, before the clock edge (what the
 * simulators check at it). It reads the nets on the TS simulator: `engine` itself, or a lockstep's first
 * member. Undefined when the design assumes nothing, or that is Verilator or Icarus (which cannot read
 * inside the design: random stimulus then goes unchecked, and the run stops at the assumption it breaks).
 */
export function assumptionsHold(engine: Simulator, design: Design): (() => boolean) | undefined {
  const sim = engine.backend === 'lockstep' ? (engine as LockstepSimulator).simulators[0]! : engine;
  if (sim.backend !== 'js' && sim.backend !== 'wasm') return undefined;
  const flat = flattenDesign(design);
  const net = (id: number) => flat.nets[id]!.name;
  const assumed = assumptionsOf(flat).map((p) => ({ cond: net(p.cond), enable: p.enable === undefined ? undefined : net(p.enable) }));
  if (!assumed.length) return undefined;
  return () => assumed.every((a) => (a.enable !== undefined && sim.peek(a.enable) === 0n) || sim.peek(a.cond) === 1n);
}

/** A flattened design's value assumptions (`m.assume`; not the X checks of `m.assumeKnown`), whose inputs random stimulus can keep. */
const assumptionsOf = (flat: ModuleIR) => (flat.properties ?? []).filter((p) => p.kind === 'assume' && p.known === undefined);

/**
 * Whether `design` assumes anything of its inputs. Random stimulus keeps that only through the TS simulator
 * (Verilator and Icarus cannot be read inside), so `rtgpu cosim` then runs the TS simulator first in the lockstep.
 */
export const designAssumes = (design: Design): boolean => assumptionsOf(flattenDesign(design)).length > 0;
