// The power-on state a proof starts from: every register as the TS simulator powers it on, so that a counterexample replays.
import type { Design } from '../ir/netlist.ts';
import { registerOrigins, type PowerOnValues } from '../ir/powerOn.ts';
import { compileSimulator } from '../sim/index.ts';

/**
 * Module -> register -> the value the TS simulator holds at power-on (before any poke or edge): the init
 * value, or the reset value of a register an asynchronous reset holds at power-on (an active-low reset input
 * powers on at 0). The emitted SV's initial blocks give these values, and `read_verilog -formal` turns them
 * into the registers' initial state, so the solver starts where every simulator starts. Undefined when the TS
 * simulator cannot run the design (a black box without a model): then the initial blocks' own values.
 */
export function simulatorPowerOn(design: Design): PowerOnValues | undefined {
  let sim;
  try {
    sim = compileSimulator(design, { backend: 'js' });
  } catch {
    return undefined;
  }
  const out = new Map<string, Map<string, bigint>>();
  try {
    for (const [flatName, origin] of registerOrigins(design)) {
      const value = sim.peek(flatName);
      const regs = out.get(origin.module) ?? new Map<string, bigint>();
      out.set(origin.module, regs);
      const before = regs.get(origin.local);
      // One module's SV gives all its instances one initial value.
      if (before !== undefined && before !== value) throw new Error(`the instances of ${origin.module} power on with different values of '${origin.local}' (${before} and ${value}, at ${flatName}): the formal flow gives a module's registers one initial value`);
      regs.set(origin.local, value);
    }
  } finally {
    sim.close();
  }
  return out;
}
