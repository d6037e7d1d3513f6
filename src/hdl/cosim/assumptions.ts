// A design's assumptions (m.assume) as a check on the inputs of the current cycle, for random stimulus to draw again against.
import { flattenDesign } from '../ir/flatten.ts';
import type { Design } from '../ir/netlist.ts';
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
  const assumed = (flat.properties ?? []).filter((p) => p.kind === 'assume' && p.known === undefined).map((p) => ({ cond: net(p.cond), enable: p.enable === undefined ? undefined : net(p.enable) }));
  if (!assumed.length) return undefined;
  return () => assumed.every((a) => (a.enable !== undefined && sim.peek(a.enable) === 0n) || sim.peek(a.cond) === 1n);
}
