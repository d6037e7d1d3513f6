// A design as the solver sees it: its SystemVerilog read by Yosys under -formal, flattened, written as an SMT-LIB model.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emitSystemVerilog, type EmittedDesign } from '../emit/index.ts';
import { flattenDesign } from '../ir/flatten.ts';
import type { Design } from '../ir/netlist.ts';
import { clockEdgesOf, moduleClocks, topModule } from '../ir/netlist.ts';
import { runYosys } from '../tools/index.ts';
import { simulatorPowerOn } from './powerOnState.ts';
import { propertySites, type PropertySite } from './propertySites.ts';

export interface FormalModel {
  /** The SMT-LIB model, relative to the proof directory. */
  readonly smt2: string;
  readonly emitted: EmittedDesign;
  readonly sites: readonly PropertySite[];
  /** The top's input ports other than clocks, by their eDSL names, with their SV identifiers. */
  readonly inputs: readonly { readonly name: string; readonly sv: string }[];
  /** Files written into the proof directory. */
  readonly files: readonly string[];
  readonly seconds: number;
}

export const MODEL_FILE = 'design.smt2';

/**
 * The design's one clock edge. The solver takes one step per clock cycle; it reads a flip-flop's clock not
 * at all, so a design with several clocks or a falling edge would need `clk2fflogic` and steps that are not
 * cycles, which a testbench could not replay: such designs are refused, naming their edges.
 */
function checkOneClockEdge(design: Design): void {
  const flat = flattenDesign(design);
  const edges = clockEdgesOf(flat);
  const clocks = moduleClocks(topModule(design));
  const shown = edges.map((e) => `${e.edge} edge of ${e.clock}`).join(', ');
  if (edges.length > 1 || edges.some((e) => e.edge !== 'rising')) {
    throw new Error(`rtgpu prove handles designs clocked by one rising edge; ${design.top} uses the ${shown}${clocks.length > 1 ? ` (clocks ${clocks.map((c) => c.name).join(', ')})` : ''}: prove its single-clock blocks one by one`);
  }
}

/** The Yosys script: read under -formal (FORMAL defined: the properties and the initial blocks), flatten, and write the model. */
export function formalScript(fileList: readonly string[], top: string): string {
  return [
    `read_verilog -formal -sv ${fileList.map((f) => `"${f}"`).join(' ')}`,
    // Flattened, so that a message names the instance path of a cover point too.
    `prep -flatten -top ${top}`,
    // An asynchronous reset acts at once: as a flip-flop with a multiplexer on its output, in the same step.
    'async2sync',
    'dffunmap',
    `write_smt2 -wires ${MODEL_FILE}`,
    '',
  ].join('\n');
}

/** Emits the design into `dir` (power-on state: the TS simulator's) and has Yosys write its SMT-LIB model there. */
export async function buildFormalModel(design: Design, dir: string): Promise<FormalModel> {
  checkOneClockEdge(design);
  const emitted = emitSystemVerilog(design, { powerOnValues: simulatorPowerOn(design) });
  for (const f of emitted.files) writeFileSync(join(dir, f.path), f.text);
  const sources = emitted.fileList;
  const top = topModule(design);
  const r = await runYosys(formalScript(sources, design.top), { cwd: dir, quiet: true });
  const ids = emitted.identifiers[design.top] ?? {};
  const inputs = top.ports.filter((p) => top.nets[p]!.kind === 'input').map((p) => top.nets[p]!.name).map((name) => ({ name, sv: ids[name] ?? name }));
  return { smt2: MODEL_FILE, emitted, sites: propertySites(design, emitted), inputs, files: [...emitted.files.map((f) => f.path), 'script.ys', 'yosys.log', MODEL_FILE], seconds: r.elapsedMs / 1000 };
}
