// Runs one design on several simulators under the same seeded random stimulus and reports the first
// difference: outputs between edges, every register after each edge, and the fused vector loop.
import { flattenDesign, type Design } from '../../src/hdl/index.ts';
import type { Simulator } from '../../src/hdl/sim/index.ts';
import { createRng } from '../../src/util/seededRandom.ts';

/** Stimulus rows: one bigint per input port per cycle (rst_n mostly high, low now and then). */
export function randomStimulus(inputs: readonly { name: string; width: number }[], seed: number, cycles: number): bigint[][] {
  const rng = createRng(seed);
  return Array.from({ length: cycles }, () => inputs.map((p) => (p.name === 'rst_n' ? (rng.int(8) === 0 ? 0n : 1n) : rng.bits(p.width))));
}

const words = (width: number) => Math.ceil(width / 32);

function pack(rows: readonly bigint[][], widths: readonly number[]): Uint32Array {
  const perRow = widths.reduce((s, w) => s + words(w), 0);
  const out = new Uint32Array(rows.length * perRow);
  let at = 0;
  for (const row of rows)
    row.forEach((v, i) => {
      for (let k = 0; k < words(widths[i]!); k++) out[at++] = Number((v >> BigInt(32 * k)) & 0xffffffffn);
    });
  return out;
}

function unpack(data: Uint32Array, widths: readonly number[], cycles: number): bigint[][] {
  const rows: bigint[][] = [];
  let at = 0;
  for (let c = 0; c < cycles; c++)
    rows.push(
      widths.map((w) => {
        let v = 0n;
        for (let k = 0; k < words(w); k++) v |= BigInt(data[at++]!) << BigInt(32 * k);
        return v;
      }),
    );
  return rows;
}

const hex = (v: bigint) => `0x${v.toString(16)}`;

/** The named nets a compiled simulator can sample besides ports and registers (wires and named nodes; not `_k` temporaries). */
function internalNets(design: Design): string[] {
  const flat = flattenDesign(design);
  const names = flat.nets.filter((n) => n.kind !== 'input' && n.kind !== 'output' && n.kind !== 'reg' && !n.name.split('.').at(-1)!.startsWith('_k')).map((n) => n.name);
  return [...new Set(names)];
}

/**
 * The first disagreement between `sims` (the first is the reference), or null: outputs each cycle
 * before the edge, registers after it; then, from power-on again, the same stimulus through
 * runVectors on every simulator, sampling the outputs and every register (and, on the TS simulators,
 * every named internal net), against what the step-by-step run saw before each edge.
 */
export function firstDisagreement(design: Design, sims: readonly Simulator[], seed: number, cycles: number): string | null {
  const ref = sims[0]!;
  const inputs = ref.ports.filter((p) => p.direction === 'input' && p.name !== 'clk');
  const outputs = ref.ports.filter((p) => p.direction === 'output');
  const flat = flattenDesign(design);
  const regs = flat.regs.map((r) => ({ name: flat.nets[r.q]!.name, width: flat.nets[r.q]!.width }));
  const internal = 'nets' in ref ? internalNets(design).map((name) => ({ name, width: flat.nets.find((n) => n.name === name)!.width })) : [];
  const rows = randomStimulus(inputs, seed, cycles);
  const seen: bigint[][] = [];
  for (let c = 0; c < cycles; c++) {
    for (const s of sims) inputs.forEach((p, i) => s.poke(p.name, rows[c]![i]!));
    const row: bigint[] = [];
    for (const p of outputs) {
      const values = sims.map((s) => s.peek(p.name));
      if (values.some((v) => v !== values[0])) return `cycle ${c}: output ${p.name}: ${sims.map((s, i) => `${s.backend} ${hex(values[i]!)}`).join(', ')}`;
      row.push(values[0]!);
    }
    // What runVectors samples before the edge: the registers as they are now, and (reference only) internal nets.
    for (const r of [...regs, ...internal]) row.push(ref.peek(r.name));
    seen.push(row);
    for (const s of sims) s.step();
    for (const r of regs) {
      const values = sims.map((s) => s.peek(r.name));
      if (values.some((v) => v !== values[0])) return `after the edge of cycle ${c}: register ${r.name}: ${sims.map((s, i) => `${s.backend} ${hex(values[i]!)}`).join(', ')}`;
    }
  }
  const stimulus = pack(rows, inputs.map((p) => p.width));
  for (const s of sims) {
    // Internal nets only where every net can be sampled (the TS simulators); registers everywhere.
    const sampled = [...outputs, ...regs, ...('nets' in s ? internal : [])];
    s.powerOn();
    const got = unpack(s.runVectors(inputs.map((p) => p.name), sampled.map((p) => p.name), stimulus, cycles), sampled.map((p) => p.width), cycles);
    for (let c = 0; c < cycles; c++)
      for (let i = 0; i < sampled.length; i++)
        if (got[c]![i] !== seen[c]![i]) return `runVectors on ${s.backend}, cycle ${c}: ${i < outputs.length ? 'output' : i < outputs.length + regs.length ? 'register' : 'net'} ${sampled[i]!.name} is ${hex(got[c]![i]!)}, step by step it was ${hex(seen[c]![i]!)}`;
  }
  return null;
}
