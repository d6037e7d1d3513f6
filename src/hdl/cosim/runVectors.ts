// Runs stimulus rows through one design on any simulator (TS, live Verilator and Icarus, gate-level Icarus) and returns the output rows.
import type { Design } from '../ir/netlist.ts';
import { topModule } from '../ir/netlist.ts';
import { compileSimulator, isGateLevel, simulatorOptions } from '../sim/index.ts';
import { externalSimulator, type SimulatorName } from './backends.ts';
import { inputsOf, outputsOf, wordsOf } from './harness.ts';
import { harnessDesign } from './runCosim.ts';
import { legalizeIdentifier } from '../emit/index.ts';

/**
 * `stimulus` holds `cycles` rows of the named inputs (each ceil(width/32) words, in the order given);
 * the result holds `cycles` rows of the named outputs, sampled before each clock edge. Inputs not named
 * are held at 0 on every simulator.
 */
export async function runVectorsOn(
  sim: SimulatorName,
  design: Design,
  inputs: readonly string[],
  outputs: readonly string[],
  stimulus: Uint32Array,
  cycles: number,
): Promise<Uint32Array> {
  if (!isGateLevel(sim)) {
    const s = await compileSimulator(design, simulatorOptions(sim));
    try {
      return s.runVectors(inputs, outputs, stimulus, cycles);
    } finally {
      s.close();
    }
  }
  // The gate-level netlist runs from a vector file (it is not a live back end).
  const top = topModule(design);
  const widthOf = (name: string) => {
    const n = top.ports.map((p) => top.nets[p]!).find((x) => x.name === name);
    if (!n) throw new Error(`no port '${name}' on ${top.name}`);
    return n.width;
  };
  const { harness } = harnessDesign(design);
  const hIn = inputsOf(harness);
  const hOut = outputsOf(harness);
  const columns = (ports: readonly { name: string; width: number }[]) => {
    let at = 0;
    return new Map(ports.map((p) => [p.name, ((at += wordsOf(p.width)), at - wordsOf(p.width))] as const));
  };
  const inAt = columns(hIn);
  const outAt = columns(hOut);
  const inRow = hIn.reduce((s, p) => s + wordsOf(p.width), 0);
  const outRow = hOut.reduce((s, p) => s + wordsOf(p.width), 0);
  const given = inputs.map((n) => ({ at: inAt.get(legalizeIdentifier(n)) ?? -1, words: wordsOf(widthOf(n)), name: n }));
  for (const g of given) if (g.at < 0) throw new Error(`'${g.name}' is not an input of ${top.name}`);
  const givenRow = given.reduce((s, g) => s + g.words, 0);
  if (stimulus.length < givenRow * cycles) throw new Error(`runVectorsOn: stimulus has ${stimulus.length} words, ${cycles} cycles need ${givenRow * cycles}`);
  const data = new Uint32Array(inRow * cycles);
  for (let c = 0; c < cycles; c++) {
    let k = c * givenRow;
    for (const g of given) for (let w = 0; w < g.words; w++) data[c * inRow + g.at + w] = stimulus[k++]!;
  }
  const result = await (await externalSimulator(sim).prepare(harness)).run(data, cycles);
  const wanted = outputs.map((n) => ({ at: outAt.get(legalizeIdentifier(n)) ?? -1, words: wordsOf(widthOf(n)), name: n }));
  for (const w of wanted) if (w.at < 0) throw new Error(`'${w.name}' is not an output of ${top.name}`);
  const wantedRow = wanted.reduce((s, w) => s + w.words, 0);
  const out = new Uint32Array(wantedRow * cycles);
  for (let c = 0; c < cycles; c++) {
    let k = c * wantedRow;
    for (const w of wanted) for (let i = 0; i < w.words; i++) out[k++] = result.outputs[c * outRow + w.at + i]!;
  }
  return out;
}
