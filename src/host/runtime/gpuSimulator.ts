// One compiled TS simulator per elaborated GPU design (compiling the whole GPU takes seconds; a process renders many frames).
import type { Design } from '../../hdl/index.ts';
import { compileSimulator, type Simulator } from '../../hdl/sim/index.ts';

const simulators = new WeakMap<Design, Simulator>();

/** The design's simulator at power-on (compiled on first use). */
export function gpuSimulator(design: Design): Simulator {
  let sim = simulators.get(design);
  if (!sim) simulators.set(design, (sim = compileSimulator(design)));
  else sim.powerOn();
  return sim;
}
