// A design as the solver sees it: its SystemVerilog read by Yosys under -formal, flattened, written as an SMT-LIB model.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emitSystemVerilog, type EmittedDesign } from '../emit/index.ts';
import { flattenDesign } from '../ir/flatten.ts';
import type { Design } from '../ir/netlist.ts';
import { clockEdgesOf, moduleClocks, topModule } from '../ir/netlist.ts';
import { runYosys } from '../tools/index.ts';
import { simulatorPowerOn } from './powerOnState.ts';
import type { StepUnit } from './proofResult.ts';
import { propertySites, type PropertySite } from './propertySites.ts';

/** A top-level port by its eDSL name and its SV identifier. */
export interface FormalPort {
  readonly name: string;
  readonly sv: string;
}

export interface FormalModel {
  /** The SMT-LIB model, relative to the proof directory. */
  readonly smt2: string;
  /** What a solver step is: a clock cycle (one rising edge), or an instant that sets the clocks' levels. */
  readonly unit: StepUnit;
  /** Instants: the constraints file that holds every clock low at power-on, as the simulators start. */
  readonly smtc?: string;
  readonly emitted: EmittedDesign;
  readonly sites: readonly PropertySite[];
  /** The top's input ports other than clocks. */
  readonly inputs: readonly FormalPort[];
  /** The top's clock inputs (instants: the solver chooses their levels). */
  readonly clocks: readonly FormalPort[];
  /** Files written into the proof directory. */
  readonly files: readonly string[];
  readonly seconds: number;
}

export const MODEL_FILE = 'design.smt2';
const CLOCKS_FILE = 'clocks.smtc';

/**
 * A design clocked by one rising edge takes one solver step per cycle (the solver reads no clock: every
 * flip-flop updates at every step). Several clocks, or a falling edge, make the clocks inputs the solver
 * drives (`clk2fflogic`): a step is then an instant, and a flip-flop updates when its clock's level makes its edge.
 */
function stepUnit(design: Design): StepUnit {
  const edges = clockEdgesOf(flattenDesign(design));
  return edges.length > 1 || edges.some((e) => e.edge !== 'rising') ? 'instant' : 'cycle';
}

/** The Yosys script: read under -formal (FORMAL defined: the properties and the initial blocks), flatten, and write the model. */
export function formalScript(fileList: readonly string[], top: string, unit: StepUnit): string {
  return [
    `read_verilog -formal -sv ${fileList.map((f) => `"${f}"`).join(' ')}`,
    // Flattened, so that a message names the instance path of a cover point too.
    `prep -flatten -top ${top}`,
    ...(unit === 'cycle'
      ? // An asynchronous reset acts at once: as a flip-flop with a multiplexer on its output, in the same step.
        ['async2sync', 'dffunmap']
      : // Every flip-flop samples the global step and updates where its clock input made its edge since the last one.
        ['clk2fflogic']),
    `write_smt2 -wires ${MODEL_FILE}`,
    '',
  ].join('\n');
}

/** Emits the design into `dir` (power-on state: the TS simulator's) and has Yosys write its SMT-LIB model there. */
export async function buildFormalModel(design: Design, dir: string): Promise<FormalModel> {
  const unit = stepUnit(design);
  const emitted = emitSystemVerilog(design, { powerOnValues: simulatorPowerOn(design) });
  for (const f of emitted.files) writeFileSync(join(dir, f.path), f.text);
  const r = await runYosys(formalScript(emitted.fileList, design.top, unit), { cwd: dir, quiet: true });
  const top = topModule(design);
  const ids = emitted.identifiers[design.top] ?? {};
  const port = (name: string): FormalPort => ({ name, sv: ids[name] ?? name });
  const inputs = top.ports.filter((p) => top.nets[p]!.kind === 'input').map((p) => port(top.nets[p]!.name));
  const clocks = moduleClocks(top).map((c) => port(c.name));
  const files = [...emitted.files.map((f) => f.path), 'script.ys', 'yosys.log', MODEL_FILE];
  if (unit === 'instant') {
    writeFileSync(join(dir, CLOCKS_FILE), ['# Every clock is low at power-on, as on every simulator.', 'initial', ...clocks.map((c) => `assume (not [${c.sv}])`), ''].join('\n'));
    files.push(CLOCKS_FILE);
  }
  return { smt2: MODEL_FILE, unit, ...(unit === 'instant' ? { smtc: CLOCKS_FILE } : {}), emitted, sites: propertySites(design, emitted), inputs, clocks, files, seconds: r.elapsedMs / 1000 };
}
