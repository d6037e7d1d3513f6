// Power-on values of registers: the reset check's seeded random values, the same for a register on every
// engine, and the values the emitted SV's simulation-only initial blocks give.
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

/** Flattened register name -> power-on value, for the reset check with `seed` (undefined without one). */
export function resetCheckValues(design: Design, seed: number | undefined): Map<string, bigint> | undefined {
  if (seed === undefined) return undefined;
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`resetCheckSeed must be a non-negative integer, got ${seed}`);
  const values = new Map<string, bigint>();
  for (const [name, origin] of registerOrigins(design)) {
    if (randomizedAtPowerOn(origin.reg)) values.set(name, powerOnValue(seed, origin.module, origin.local, origin.width));
  }
  return values;
}

/**
 * Power-on values that replace a register's init (and its reset-check value) in the emitted SV's
 * simulation-only initial block: module name -> register (its q net's name) -> value.
 */
export type PowerOnValues = ReadonlyMap<string, ReadonlyMap<string, bigint>>;

/** What the emitted initial blocks power registers on at: init, unless the reset check or `values` says otherwise. */
export interface PowerOnOptions {
  readonly resetCheckSeed?: number;
  readonly values?: PowerOnValues;
}

/** The power-on value of register `r` of module `mod` in the emitted SV's initial block. */
export function emittedPowerOn(mod: ModuleIR, r: Reg, opts: PowerOnOptions): bigint {
  const net = mod.nets[r.q]!;
  const given = opts.values?.get(mod.name)?.get(net.name);
  if (given !== undefined) return given;
  if (opts.resetCheckSeed === undefined || !randomizedAtPowerOn(r)) return r.init ?? 0n;
  return powerOnValue(opts.resetCheckSeed, mod.name, net.name, net.width);
}
