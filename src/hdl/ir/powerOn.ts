// Power-on values of registers for the reset check: seeded random values, the same for a register on every engine.
//
// Registers power on at their init value (0 without one) on every simulator, so a testbench that forgets
// the reset may pass by luck. With a seed, every register that has a reset powers on at a value drawn from
// (seed, module, register) instead: the TS simulator and the emitted SystemVerilog's initial blocks agree,
// and a missing reset shows up as a difference from the expected behaviour.
import type { Design, ModuleIR, Reg } from './netlist.ts';
import { findModule } from './netlist.ts';

/** The reset-check value of register `reg` (its local name) of module `module`: `width` bits from a hash of the three. */
export function powerOnValue(seed: number, module: string, reg: string, width: number): bigint {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (const ch of `${module}\u0000${reg}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  let v = 0n;
  for (let bits = 0; bits < width; bits += 32) {
    // splitmix32 steps from the hash: independent words for wide registers.
    h = (h + 0x9e3779b9) >>> 0;
    let z = h;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    z = (z ^ (z >>> 16)) >>> 0;
    v |= BigInt(z) << BigInt(bits);
  }
  return v & ((1n << BigInt(width)) - 1n);
}

/** Which registers the reset check randomizes: those with a reset (a register without one is defined by its init). */
export const randomizedAtPowerOn = (r: Reg): boolean => r.reset !== undefined;

/**
 * Per flattened register name (as flattenDesign names it: instance path, then the register's name), the
 * module that declares it and its local name. Black boxes are skipped: their Verilog has its own power-on.
 */
export function registerOrigins(design: Design): Map<string, { module: string; local: string; reg: Reg; width: number }> {
  const out = new Map<string, { module: string; local: string; reg: Reg; width: number }>();
  const walk = (m: ModuleIR, prefix: string) => {
    if (m.blackBox) return;
    for (const r of m.regs) {
      const local = m.nets[r.q]!.name;
      out.set(prefix + local, { module: m.name, local, reg: r, width: m.nets[r.q]!.width });
    }
    for (const inst of m.instances) walk(findModule(design, inst.module), `${prefix}${inst.name}.`);
  };
  walk(findModule(design, design.top), '');
  return out;
}
