// The registers an asynchronous reset from logic holds at power-on, as the TS simulator settles them: the
// power-on values the external engines' SystemVerilog starts them at.
//
// An asynchronous reset is a level on the TS simulator, as on the flop: a register whose reset is asserted
// is in reset, from power-on too. An event-driven simulator runs `always_ff @(… or negedge rs)` on an
// event, and time 0 has none that simulators agree on: Verilator (two-state) sees no edge, Icarus sees
// X -> 0 on a net but may miss it on a variable set by an initial block. The top's reset inputs are
// pulsed at power-on (externalDesign.ts asyncResetInputs). A reset computed by logic or held by a
// register is settled here by the TS simulator instead, and its registers' reset values go to the emitted
// SV's simulation-only initial blocks (EmitOptions.powerOnValues).
import type { Design, ModuleIR, NetId, Reg } from '../../ir/netlist.ts';
import { flattenDesign } from '../../ir/flatten.ts';
import { registerOrigins, resetCheckValues, type PowerOnValues } from '../../ir/powerOn.ts';
import { compileNetlist } from '../compiled/compiledSimulator.ts';

/** The net a register's asynchronous reset comes from through copies and inversions (a `buf` per level of hierarchy, a `not` where an active-high domain drives a child's `rst_n`), and the level of it that asserts the reset. */
export interface AsyncResetRoot {
  readonly reg: Reg;
  readonly net: NetId;
  readonly activeHigh: boolean;
}

/** Every register of a flattened design with an asynchronous reset, with the root of its reset. */
export function asyncResetRoots(flat: ModuleIR): AsyncResetRoot[] {
  const driver = new Map<number, { a: number; invert: boolean }>();
  for (const c of flat.cells) if (c.op === 'buf' || c.op === 'not') driver.set(c.out, { a: c.a, invert: c.op === 'not' });
  return flat.regs
    .filter((r) => r.reset?.kind === 'async')
    .map((reg) => {
      let net = reg.reset!.net;
      let activeHigh = reg.reset!.activeHigh === true;
      for (let d = driver.get(net), hops = 0; d && hops <= flat.nets.length; d = driver.get(net), hops++) {
        net = d.a;
        if (d.invert) activeHigh = !activeHigh;
      }
      return { reg, net, activeHigh };
    });
}

/**
 * Per module, the registers whose asynchronous reset (not a top input) is asserted at power-on, at their
 * reset values; undefined when the design has no such reset (no TS simulator is built then). A module
 * whose instances disagree (one held in reset at power-on, another not) keeps its default power-on value:
 * one initial block cannot say both.
 */
export function resetAtPowerOn(design: Design, opts: { resetCheckSeed?: number } = {}): PowerOnValues | undefined {
  if (resetsFromLogic(flattenDesign(design)).length === 0) return undefined;
  // The TS simulator runs black boxes as their models; without one it cannot settle the design (the engines then start those registers at their usual power-on values).
  if (design.modules.some((m) => m.blackBox && !m.blackBox.model)) return undefined;
  const flat = flattenDesign(design, { blackBoxes: 'model' });
  const fromLogic = resetsFromLogic(flat);
  const sim = compileNetlist(flat, { backend: 'js', powerOnValues: resetCheckValues(design, opts.resetCheckSeed) });
  const origins = registerOrigins(design);
  // Module -> register -> its reset value when every instance is in reset at power-on, null when some is not.
  const held = new Map<string, Map<string, bigint | null>>();
  try {
    for (const { reg } of fromLogic) {
      const origin = origins.get(flat.nets[reg.q]!.name);
      // A register of a black box's TypeScript model: the engines run its Verilog.
      if (!origin) continue;
      const level = sim.peek(flat.nets[reg.reset!.net]!.name);
      const asserted = reg.reset!.activeHigh === true ? level !== 0n : level === 0n;
      const regs = held.get(origin.module) ?? new Map<string, bigint | null>();
      held.set(origin.module, regs);
      const before = regs.get(origin.local);
      regs.set(origin.local, asserted && before !== null ? reg.reset!.value : null);
    }
  } finally {
    sim.close();
  }
  const out = new Map<string, Map<string, bigint>>();
  for (const [module, regs] of held) {
    const values = new Map([...regs].filter((e): e is [string, bigint] => e[1] !== null));
    if (values.size) out.set(module, values);
  }
  return out;
}

/** The registers whose asynchronous reset is not a top input (through copies and inversions). */
function resetsFromLogic(flat: ModuleIR): AsyncResetRoot[] {
  const inputs = new Set(flat.ports.filter((p) => flat.nets[p]!.kind === 'input'));
  return asyncResetRoots(flat).filter((x) => !inputs.has(x.net));
}
