// Elaboration of a black box: its Verilog sources read, its parameter overrides evaluated, its model elaborated and checked against its ports.
import { readFileSync } from 'node:fs';
import type { BlackBoxDef } from '../core/blackBox.ts';
import { isVerilogIdentifier } from '../core/blackBox.ts';
import type { ModuleDef } from '../core/module.ts';
import { HdlError, hdlError } from '../ir/diagnostics.ts';
import type { BlackBox, Design, ModuleIR, Net, SourceLoc, VerilogParameterValue, VerilogSource } from '../ir/netlist.ts';
import { topModule } from '../ir/netlist.ts';

/** Elaborates a model as the top of a design of its own (the session's warnings collect its warnings). */
export type ModelElaborator = (model: ModuleDef<any, any>, params: unknown) => Design;

/** The lowered ports of a black box, completed with its Verilog side and, when it has one, its checked model. */
export function completeBlackBox(ports: ModuleIR, def: BlackBoxDef<any, any>, params: unknown, elaborateModel: ModelElaborator): ModuleIR {
  const spec = def.blackBox;
  checkPortNames(ports, def);
  const blackBox: BlackBox = {
    verilogName: spec.verilogName,
    parameters: parameterOverrides(def, params),
    sources: spec.sources.map((path) => readSource(path, def)),
    ...(spec.clock !== undefined ? { clock: spec.clock } : {}),
    ...(spec.reset !== undefined ? { reset: spec.reset } : {}),
    ...(spec.resetActive === 'high' ? { resetActiveHigh: true } : {}),
    ...(spec.lintWaivers ? { lintWaivers: checkedWaivers(def) } : {}),
  };
  // Its clocks: the implicit one under the Verilog name `clock`, or Clock ports declared in its port list.
  if (spec.clock !== undefined && ports.clocks !== undefined) throw hdlError('InvalidArgument', `black box '${spec.verilogName}' gives a clock option and declares Clock ports; declare its clocks one way`, def.loc);
  const ir: ModuleIR = { ...ports, clocked: spec.clock !== undefined || ports.clocks !== undefined, blackBox };
  if (!spec.model) return ir;
  const model = elaborateModel(spec.model, params);
  checkModelPorts(ir, def, topModule(model), spec.model);
  return { ...ir, blackBox: { ...blackBox, model } };
}

/** Rule names are Verilator's (upper-case words); a message is any text of a warning. */
function checkedWaivers(def: BlackBoxDef<any, any>): { verilator: string[]; icarus: string[] } {
  const w = def.blackBox.lintWaivers!;
  const name = def.blackBox.verilogName;
  for (const key of Object.keys(w)) if (key !== 'verilator' && key !== 'icarus') throw hdlError('InvalidArgument', `black box '${name}': lintWaivers has no tool '${key}' (verilator, icarus)`, def.loc);
  const verilator = [...(w.verilator ?? [])];
  const icarus = [...(w.icarus ?? [])];
  for (const rule of verilator) if (typeof rule !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(rule)) throw hdlError('InvalidArgument', `black box '${name}': '${String(rule)}' is not a Verilator rule name (such as UNUSEDSIGNAL or WIDTH)`, def.loc);
  for (const text of icarus) if (typeof text !== 'string' || !text.trim()) throw hdlError('InvalidArgument', `black box '${name}': an Icarus waiver is the text of a warning, got ${JSON.stringify(text)}`, def.loc);
  return { verilator, icarus };
}

function readSource(path: string, def: BlackBoxDef<any, any>): VerilogSource {
  try {
    return { path, text: readFileSync(path, 'utf8') };
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    throw hdlError('BlackBoxSource', `cannot read '${path}', a Verilog source of black box '${def.blackBox.verilogName}': ${why}`, def.loc);
  }
}

function parameterOverrides(def: BlackBoxDef<any, any>, params: unknown): Record<string, VerilogParameterValue> {
  const overrides = def.blackBox.parameters?.(params) ?? {};
  for (const [name, value] of Object.entries(overrides)) {
    const valid = typeof value === 'bigint' || typeof value === 'boolean' || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
    if (!isVerilogIdentifier(name) || !valid) {
      throw hdlError('InvalidArgument', `black box '${def.blackBox.verilogName}': parameter ${name} = ${String(value)} is not a Verilog identifier with a finite number, bigint, boolean or string`, def.loc);
    }
  }
  return overrides;
}

/** Port names reach the Verilog unchanged; the clock and reset are named by the options, not by ports. */
function checkPortNames(ports: ModuleIR, def: BlackBoxDef<any, any>): void {
  const { clock, reset, verilogName } = def.blackBox;
  for (const net of ports.ports.map((p) => ports.nets[p]!)) {
    // The implicit reset port is rst_n itself (useReset), which may well be the Verilog reset's name.
    if (reset !== undefined && net.name === 'rst_n') continue;
    if (net.name === clock || net.name === reset) {
      throw hdlError('InvalidArgument', `port '${net.name}' of black box '${verilogName}' has the name of its ${net.name === clock ? 'clock' : 'reset'}, which is connected implicitly`, net.loc);
    }
  }
}

type PortsByName = Map<string, Net>;
const portsByName = (m: ModuleIR): PortsByName => new Map(m.ports.map((p) => [m.nets[p]!.name, m.nets[p]!]));

/** What differs between the black box's ports and its model's (the model may leave the black box's reset unused). */
function portDifferences(blackBox: ModuleIR, model: ModuleIR): string[] {
  const ours = portsByName(blackBox);
  const theirs = portsByName(model);
  const problems: string[] = [];
  for (const [name, p] of ours) {
    const q = theirs.get(name);
    if (!q) {
      if (name !== 'rst_n') problems.push(`the model has no ${p.kind} '${name}'`);
    } else if (q.kind !== p.kind) problems.push(`'${name}' is an ${p.kind} of the black box but an ${q.kind} of the model`);
    else if (q.width !== p.width) problems.push(`'${name}' has ${p.width} bits in the black box but ${q.width} in the model`);
  }
  for (const [name, q] of theirs) {
    if (ours.has(name)) continue;
    problems.push(name === 'rst_n' ? "the model uses the reset 'rst_n' but the black box has none ({ reset })" : `the black box has no ${q.kind} '${name}'`);
  }
  if (model.clocked && !blackBox.clocked) problems.push('the model holds state but the black box has no clock ({ clock })');
  return problems;
}

function checkModelPorts(blackBox: ModuleIR, def: BlackBoxDef<any, any>, model: ModuleIR, modelDef: ModuleDef<any, any>): void {
  const problems = portDifferences(blackBox, model);
  if (!problems.length) return;
  const at = (loc: SourceLoc) => `${loc.file}:${loc.line}`;
  throw new HdlError([
    {
      code: 'BlackBoxModel',
      severity: 'error',
      message: `the model ${modelDef.name} (${at(modelDef.loc)}) does not match the ports of black box '${def.blackBox.verilogName}' (${at(def.loc)}): ${problems.join('; ')}`,
      loc: def.loc,
      notes: [{ message: `model ${modelDef.name} declared here`, loc: modelDef.loc }],
    },
  ]);
}
