// Replay on live simulators, for what the standalone harnesses cannot replay: a recording made instant by
// instant (a design with several clocks or a falling edge; the rows run through the Simulator API: inputs,
// outputs sampled, then the clocks' instant) or a design with an active-high asynchronous reset (the
// harnesses power 1-bit inputs on high). The gate-level simulators run live on Icarus over Yosys' netlist;
// every output is compared row by row.
import type { Design } from '../ir/netlist.ts';
import { topModule } from '../ir/netlist.ts';
import { compileSimulator, isGateLevel, simulatorOptions, type Simulator } from '../sim/index.ts';
import { asyncResetPolarity, externalDesign } from '../sim/external/externalDesign.ts';
import { startIcarus } from '../sim/icarus/icarusSimulator.ts';
import { resetInputs } from '../sim/signals.ts';
import { flattenDesign } from '../ir/flatten.ts';
import { gateNetlist } from '../synth/gateNetlist.ts';
import { toolVersion } from '../tools/toolchain.ts';
import type { SimulatorName } from './backends.ts';
import { firstMismatch, harnessDesign, portLayout, svLocation, type CosimMismatch } from './runCosim.ts';
import type { Recording } from './recording.ts';

/** What a replay found: the first mismatch (null: none) and each simulator's seconds. */
export interface ReplayReport {
  readonly mismatch: CosimMismatch | null;
  readonly seconds: Readonly<Record<string, number>>;
}

const NETLIST = 'netlist.v';

/** A live simulator of `design` for one replay target. */
async function open(design: Design, sim: SimulatorName, log: (line: string) => void): Promise<Simulator> {
  if (!isGateLevel(sim)) return compileSimulator(design, simulatorOptions(sim, { log }));
  // Synthesis renames, merges and removes registers: the ports are what the live testbench binds.
  await Promise.all([toolVersion('iverilog'), toolVersion('vvp')]);
  const x = externalDesign(design, { registers: false });
  const net = await gateNetlist({ top: design.top, files: x.emitted.files, fileList: x.emitted.fileList }, log, { registerPowerOn: sim === 'icarus-gate' });
  log(`${sim}: netlist of ${(net.text.length / 1e6).toFixed(1)} MB, ${net.synthesized} modules synthesized in ${net.seconds.toFixed(1)} s, ${net.cached} from the cache`);
  return startIcarus({ ...x, emitted: { ...x.emitted, files: [{ path: NETLIST, text: net.text }], fileList: [NETLIST] }, memories: [] }, { log });
}

/**
 * The recording's rows on `sim`: per row the inputs, the outputs as they settle (from row `from` on:
 * before it they may be X on a netlist without power-on values, and read as 0), then the instant.
 */
export function runInstants(sim: Simulator, rec: Recording, outputs: readonly string[], from = 0): Uint32Array {
  const ins = rec.inputs.map((name) => ({ name, words: Math.ceil(sim.ports.find((p) => p.name === name)!.width / 32) }));
  const outs = outputs.map((name) => ({ name, words: Math.ceil(sim.ports.find((p) => p.name === name)!.width / 32) }));
  const outRow = outs.reduce((s, p) => s + p.words, 0);
  const result = new Uint32Array(outRow * rec.cycles);
  const { clocks, levels } = rec.instants!;
  let last = 0;
  for (let r = 0, at = 0, o = 0; r < rec.cycles; r++) {
    for (const p of ins) {
      let v = 0n;
      for (let k = p.words - 1; k >= 0; k--) v = (v << 32n) | BigInt(rec.rows[at + k]!);
      at += p.words;
      sim.poke(p.name, v);
    }
    for (const p of outs) {
      const v = r >= from ? sim.peek(p.name) : 0n;
      for (let k = 0; k < p.words; k++) result[o++] = Number((v >> BigInt(32 * k)) & 0xffffffffn);
    }
    // The instant (its recorded time matters for waveforms only: a replay traces none).
    const changes: Record<string, 0 | 1> = {};
    clocks.forEach((c, k) => {
      const v = ((levels[r]! >> k) & 1) as 0 | 1;
      if (v !== ((last >> k) & 1)) changes[c] = v;
    });
    last = levels[r]!;
    sim.setClocks(changes);
  }
  return result;
}

/** Whether the standalone harnesses cannot replay `rec` on `design` (see the top of this file). */
export function needsLiveReplay(design: Design, rec: Recording): boolean {
  return rec.instants !== undefined || [...asyncResetPolarity(flattenDesign(design)).values()].includes('high');
}

/** A recording of cycles on a live simulator: its vector run (outputs before `from` may be X, read as 0). */
function runCycles(sim: Simulator, rec: Recording, outputs: readonly string[], from: number): Uint32Array {
  const words = rec.rows.length / Math.max(1, rec.cycles);
  const early = sim.runVectors(rec.inputs, outputs, rec.rows.subarray(0, from * words), from, { unknownAsZero: new Set(outputs) });
  const late = sim.runVectors(rec.inputs, outputs, rec.rows.subarray(from * words), rec.cycles - from);
  const out = new Uint32Array(early.length + late.length);
  out.set(early);
  out.set(late, early.length);
  return out;
}

export async function replayLive(design: Design, rec: Recording, sims: readonly SimulatorName[], log: (line: string) => void, tsSimulator?: Simulator): Promise<ReplayReport> {
  const top = topModule(design);
  const outNets = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'output');
  const out = portLayout(outNets);
  const sv = harnessDesign(design);
  const from = sims.includes('icarus-gate-reset') ? initialResetRows(design, rec) : 0;
  const traces: Record<string, Uint32Array> = {};
  const seconds: Record<string, number> = {};
  for (const name of sims) {
    log(`${name}: preparing ${top.name}`);
    const sim = name === 'ts' && tsSimulator ? tsSimulator : await open(design, name, log);
    try {
      sim.powerOn();
      log(`${name}: replaying ${rec.cycles} ${rec.instants ? 'instants' : 'cycles'}`);
      const t0 = performance.now();
      const outputs = outNets.map((n) => n.name);
      const unknownBefore = name === 'icarus-gate-reset' ? from : 0;
      traces[name] = rec.instants ? runInstants(sim, rec, outputs, unknownBefore) : runCycles(sim, rec, outputs, unknownBefore);
      seconds[name] = (performance.now() - t0) / 1000;
    } finally {
      if (sim !== tsSimulator) sim.close();
    }
  }
  const mismatch = firstMismatch(sims, traces, out.ports, out.rowWords, rec.cycles, (n) => svLocation(design, sv.lines, n), top.name, from);
  return { mismatch, seconds };
}

/** The recorded rows from 0 while the design's reset (the one `reset()` holds) is asserted (0 without one). */
function initialResetRows(design: Design, rec: Recording): number {
  const top = topModule(design);
  const resets = resetInputs(flattenDesign(design));
  // As `reset()` chooses it (signals.ts defaultResetName).
  const name = rec.inputs.includes('rst_n') || resets.size !== 1 ? 'rst_n' : [...resets.keys()][0]!;
  const activeHigh = resets.get(name) ?? false;
  const width = (n: string) => top.nets[top.ports.find((p) => top.nets[p]!.name === n)!]!.width;
  const rowWords = rec.inputs.reduce((s, n) => s + Math.ceil(width(n) / 32), 0);
  const i = rec.inputs.indexOf(name);
  if (i < 0) return 0;
  const at = rec.inputs.slice(0, i).reduce((s, n) => s + Math.ceil(width(n) / 32), 0);
  let c = 0;
  while (c < rec.cycles && (rec.rows[c * rowWords + at] !== 0) === activeHigh) c++;
  return c;
}
