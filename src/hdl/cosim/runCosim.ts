// Runs one co-simulation design on several simulators with the same stimulus and compares every output, every cycle.
import { basename } from 'node:path';
import type { Design, ModuleIR, Net } from '../ir/netlist.ts';
import { findModule, topModule } from '../ir/netlist.ts';
import { flattenDesign } from '../ir/flatten.ts';
import { legalizeIdentifier } from '../emit/index.ts';
import { CoverageRecorder, compileSimulator, isGateLevel, resetAtPowerOn, type CoverageReport } from '../sim/index.ts';
import { emitSystemVerilog } from '../emit/index.ts';
import type { CosimDesign } from './design.ts';
import { createRng } from '../../util/seededRandom.ts';
import { externalSimulator, type SimulatorName } from './backends.ts';
import type { HarnessDesign } from './harness.ts';
import type { Recording } from './recording.ts';

export interface CosimOptions {
  readonly cycles: number;
  readonly seed: number;
  readonly sims: readonly SimulatorName[];
  /** Also compare every register of the design (anywhere in the hierarchy) every cycle. */
  readonly compareRegisters?: boolean;
  /** Called with a line of progress (builds, runs). */
  readonly log?: (line: string) => void;
  /**
   * Seconds the live Icarus run may take to answer (absent: 2 minutes plus 50 ms a cycle, about six times
   * the whole GPU's pace on Icarus): a vvp that stops answering is an error, not a run that never ends.
   */
  readonly timeoutSeconds?: number;
  /** Measure coverage on the TS simulator's run (CosimReport.coverage). */
  readonly coverage?: boolean;
}

const icarusTimeoutSeconds = (cycles: number): number => 120 + 0.05 * cycles;

export interface CosimMismatch {
  readonly cycle: number;
  readonly port: string;
  readonly values: Readonly<Record<string, bigint>>;
  readonly width: number;
  /** TypeScript line that declared the port, and the SV line that drives it. */
  readonly tsLoc: string;
  readonly svLoc: string;
}

export interface CosimReport {
  readonly design: string;
  readonly cycles: number;
  readonly seed: number;
  readonly sims: readonly SimulatorName[];
  readonly mismatch: CosimMismatch | null;
  readonly golden: { readonly cycle: number; readonly message: string } | null;
  readonly seconds: Readonly<Record<string, number>>;
  /** With `coverage`: what the TS simulator's run covered. */
  readonly coverage?: CoverageReport;
}

export interface PortInfo {
  readonly net: Net;
  readonly words: number;
  readonly offset: number;
}

export function portLayout(nets: readonly Net[]): { ports: PortInfo[]; rowWords: number } {
  let offset = 0;
  const ports = nets.map((net) => {
    const words = Math.ceil(net.width / 32);
    const p = { net, words, offset };
    offset += words;
    return p;
  });
  return { ports, rowWords: offset };
}

function writeValue(buf: Uint32Array, at: number, words: number, v: bigint): void {
  for (let w = 0; w < words; w++) buf[at + w] = Number((v >> BigInt(32 * w)) & 0xffffffffn);
}

function readValue(buf: Uint32Array, at: number, words: number): bigint {
  let v = 0n;
  for (let w = words - 1; w >= 0; w--) v = (v << 32n) | BigInt(buf[at + w]!);
  return v;
}

/** The stimulus for every cycle as packed words, validated against the top module's inputs. */
export function buildStimulus(d: CosimDesign, top: ModuleIR, cycles: number, seed: number): { data: Uint32Array; inputs: PortInfo[]; rowWords: number } {
  const inputNets = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'input');
  const { ports, rowWords } = portLayout(inputNets);
  const data = new Uint32Array(rowWords * cycles);
  const rng = createRng(seed);
  for (let c = 0; c < cycles; c++) {
    const values = d.stimulus(c, rng);
    for (const p of ports) {
      const v = values[p.net.name];
      if (v === undefined) throw new Error(`design '${d.name}': stimulus gave no value for input '${p.net.name}' at cycle ${c}`);
      if (v < 0n || v >> BigInt(p.net.width) !== 0n) throw new Error(`design '${d.name}': stimulus value ${v} for input '${p.net.name}' does not fit ${p.net.width} bits (cycle ${c})`);
      writeValue(data, c * rowWords + p.offset, p.words, v);
    }
    for (const k of Object.keys(values)) {
      if (!ports.some((p) => p.net.name === k)) throw new Error(`design '${d.name}': stimulus drives '${k}', which is not an input of ${top.name}`);
    }
  }
  return { data, inputs: ports, rowWords };
}

/** A design's seeded stimulus as a recording of its inputs (what `portableTestbench` and `replayRecording` take). */
export function stimulusRecording(d: CosimDesign, design: Design, cycles: number, seed: number): Recording {
  const stim = buildStimulus(d, topModule(design), cycles, seed);
  return { inputs: stim.inputs.map((p) => p.net.name), rows: stim.data, cycles };
}

/** Registers of the flattened design, by hierarchical name, as probes for the external simulators. */
export function registerProbes(design: Design): { nets: Net[]; probes: NonNullable<HarnessDesign['probes']> } {
  const flat = flattenDesign(design);
  const nets = flat.regs.map((r) => flat.nets[r.q]!);
  return { nets, probes: nets.map((n) => ({ path: n.name.split('.').map(legalizeIdentifier), width: n.width })) };
}

/** `Module.sv:line` for a hierarchical net name, following instance names from the top. */
export function svLocation(design: Design, lines: Record<string, Record<string, number>>, dotted: string): string {
  let mod = topModule(design);
  const parts = dotted.split('.');
  for (const inst of parts.slice(0, -1)) {
    const next = mod.instances.find((i) => i.name === inst);
    if (!next) return `${mod.name}.sv:?`;
    mod = findModule(design, next.module);
  }
  return `${mod.name}.sv:${lines[mod.name]?.[parts.at(-1)!] ?? '?'}`;
}

export function harnessDesign(design: Design, probes?: HarnessDesign['probes']): { harness: HarnessDesign; lines: Record<string, Record<string, number>> } {
  const top = topModule(design);
  const emitted = emitSystemVerilog(design, { powerOnValues: resetAtPowerOn(design) });
  return {
    harness: {
      probes,
      top: top.name,
      svFiles: emitted.files,
      fileList: emitted.fileList,
      clocked: top.clocked,
      ports: top.ports.map((p) => {
        const n = top.nets[p]!;
        // The SV name: a port called after a reserved word (`end`) is emitted escaped (`end_`).
        return { name: legalizeIdentifier(n.name), width: n.width, dir: n.kind === 'input' ? ('input' as const) : ('output' as const) };
      }),
    },
    lines: emitted.lines,
  };
}

export async function runCosim(d: CosimDesign, opts: CosimOptions): Promise<CosimReport> {
  const log = opts.log ?? (() => {});
  const design = d.elaborate();
  const top = topModule(design);
  const stim = buildStimulus(d, top, opts.cycles, opts.seed);
  const reg = opts.compareRegisters ? registerProbes(design) : undefined;
  const outNets = [...top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'output'), ...(reg?.nets ?? [])];
  const out = portLayout(outNets);
  const traces: Record<string, Uint32Array> = {};
  const seconds: Record<string, number> = {};
  const inputNames = stim.inputs.map((p) => p.net.name);
  const outputNames = outNets.map((n) => n.name);

  const sv = opts.sims.some((s) => s !== 'ts') ? harnessDesign(design, reg?.probes) : undefined;
  if (opts.coverage && !opts.sims.includes('ts')) throw new Error('coverage is measured on the TS simulator: include ts in the simulators');
  let coverage: CoverageReport | undefined;
  for (const sim of opts.sims) {
    if (isGateLevel(sim)) {
      // The gate-level netlist runs from a vector file (it is not a live back end). Without power-on
      // values its outputs are only defined once the stimulus's initial reset is over.
      const unknownBefore = sim === 'icarus-gate-reset' ? initialResetCycles(stim, opts.cycles) : 0;
      log(`${sim}: preparing ${top.name}`);
      const prepared = await externalSimulator(sim).prepare({ ...sv!.harness, unknownBefore }, log);
      log(`${sim}: running ${opts.cycles} cycles`);
      const r = await prepared.run(stim.data, opts.cycles);
      traces[sim] = r.outputs;
      seconds[sim] = r.seconds;
      continue;
    }
    const registers = opts.compareRegisters ?? false;
    const s =
      sim === 'ts'
        ? compileSimulator(design)
        : sim === 'icarus'
          ? await compileSimulator(design, { backend: sim, registers, log, timeoutSeconds: opts.timeoutSeconds ?? icarusTimeoutSeconds(opts.cycles) })
          : await compileSimulator(design, { backend: sim, registers, log });
    const recorder = sim === 'ts' && opts.coverage ? new CoverageRecorder(design, s) : undefined;
    try {
      if (sim !== 'ts') log(`${sim}: running ${opts.cycles} cycles`);
      const t0 = performance.now();
      traces[sim] = s.runVectors(inputNames, outputNames, stim.data, opts.cycles);
      seconds[sim] = (performance.now() - t0) / 1000;
      if (recorder) coverage = recorder.report();
    } finally {
      s.close();
    }
  }

  // The initial reset's outputs are undefined without power-on values: not compared.
  const from = opts.sims.includes('icarus-gate-reset') ? initialResetCycles(stim, opts.cycles) : 0;
  const mismatch = firstMismatch(opts.sims, traces, out.ports, out.rowWords, opts.cycles, (name) => (sv ? svLocation(design, sv.lines, name) : '?'), top.name, from);
  let golden: CosimReport['golden'] = null;
  if (d.golden && traces[opts.sims[0]!]) {
    const model = d.golden();
    const trace = traces[opts.sims[0]!]!;
    for (let c = 0; c < opts.cycles && !golden; c++) {
      const inputs: Record<string, bigint> = {};
      for (const p of stim.inputs) inputs[p.net.name] = readValue(stim.data, c * stim.rowWords + p.offset, p.words);
      const outputs: Record<string, bigint> = {};
      for (const p of out.ports) outputs[p.net.name] = readValue(trace, c * out.rowWords + p.offset, p.words);
      const msg = model.check(c, inputs, outputs);
      if (msg !== null) golden = { cycle: c, message: msg };
    }
  }
  return { design: d.name, cycles: opts.cycles, seed: opts.seed, sims: opts.sims, mismatch, golden, seconds, ...(coverage ? { coverage } : {}) };
}

/**
 * The cycles from 0 while `rst_n` is low, and the first with it high (a synchronous reset takes effect at
 * that cycle's edge... the outputs of the cycle after are the first defined by it): none without a reset.
 */
function initialResetCycles(stim: ReturnType<typeof buildStimulus>, cycles: number): number {
  const reset = stim.inputs.find((p) => p.net.name === 'rst_n');
  if (!reset) return 0;
  let c = 0;
  while (c < cycles && readValue(stim.data, c * stim.rowWords + reset.offset, reset.words) === 0n) c++;
  return c;
}

/** The first cycle and output port where any simulator disagrees with the first one listed. */
export function firstMismatch(
  sims: readonly string[],
  traces: Record<string, Uint32Array>,
  ports: readonly PortInfo[],
  rowWords: number,
  cycles: number,
  svLocOf: (netName: string) => string,
  topName: string,
  from = 0,
): CosimMismatch | null {
  if (sims.length < 2) return null;
  const ref = traces[sims[0]!]!;
  for (let c = from; c < cycles; c++) {
    const row = c * rowWords;
    for (const p of ports) {
      for (const s of sims.slice(1)) {
        const t = traces[s]!;
        let same = true;
        for (let w = 0; w < p.words; w++) if (t[row + p.offset + w] !== ref[row + p.offset + w]) same = false;
        if (same) continue;
        const values: Record<string, bigint> = {};
        for (const name of sims) values[name] = readValue(traces[name]!, row + p.offset, p.words);
        const loc = p.net.loc;
        return {
          cycle: c,
          port: `${topName}.${p.net.name}`,
          values,
          width: p.net.width,
          tsLoc: `${loc.file}:${loc.line}`,
          svLoc: svLocOf(p.net.name),
        };
      }
    }
  }
  return null;
}

export function formatMismatch(m: CosimMismatch): string {
  const hexDigits = Math.ceil(m.width / 4);
  const vals = Object.entries(m.values)
    .map(([s, v]) => `  ${s.padEnd(10)} ${m.width}'h${v.toString(16).padStart(hexDigits, '0')}`)
    .join('\n');
  return `mismatch at cycle ${m.cycle} on ${m.port}:\n${vals}\n  declared at ${m.tsLoc} (${basename(m.tsLoc)}), driven at ${m.svLoc}`;
}
