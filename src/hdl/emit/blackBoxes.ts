// Black boxes in the emitted design: their Verilog sources as its files, and how an instance names any module and its ports.
import { basename } from 'node:path';
import { hdlError } from '../ir/diagnostics.ts';
import type { Design, ModuleIR, VerilogParameterValue, VerilogSource } from '../ir/netlist.ts';
import { moduleClocks } from '../ir/netlist.ts';
import { IdentifierMap } from './identifiers.ts';

/** How a module looks from outside in SystemVerilog: what an instance names, its clock port, and each port's identifier. */
export interface SvInterface {
  /** The module name, with a black box's parameter overrides (`popcount #(.WIDTH(16))`). */
  readonly instantiated: string;
  /** Its clock inputs: each port's identifier, and the netlist clock it is (`clk` for a black box's clock). */
  readonly clocks: readonly { readonly port: string; readonly clock: string }[];
  /** A port net's identifier; call in port order (generated modules number colliding names in that order). */
  readonly port: (net: string) => string;
}

export function svInterface(m: ModuleIR): SvInterface {
  const bb = m.blackBox;
  // A black box's ports are the Verilog's own names; its reset is the port net `rst_n`.
  if (bb) return { instantiated: `${bb.verilogName}${parameterList(bb.parameters)}`, clocks: bb.clock !== undefined ? [{ port: bb.clock, clock: 'clk' }] : moduleClocks(m).map((c) => ({ port: c.name, clock: c.name })), port: (n) => (n === 'rst_n' && bb.reset !== undefined ? bb.reset : n) };
  // Escaped the way the module's own emitter escapes them: clock reserved, ports mapped first.
  const clocks = moduleClocks(m).map((c) => c.name);
  const ids = new IdentifierMap(clocks);
  return { instantiated: m.name, clocks: clocks.map((c) => ({ port: c, clock: c })), port: (n) => ids.get(n) };
}

/** The SystemVerilog module name of a netlist module: a black box's Verilog name, else its own. */
export function svModuleName(m: ModuleIR): string {
  return m.blackBox?.verilogName ?? m.name;
}

function parameterList(parameters: Readonly<Record<string, VerilogParameterValue>>): string {
  const overrides = Object.entries(parameters).map(([name, v]) => `.${name}(${parameterLiteral(v)})`);
  return overrides.length ? ` #(${overrides.join(', ')})` : '';
}

function parameterLiteral(v: VerilogParameterValue): string {
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'string') return `"${v.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
  return String(v);
}

/**
 * The black boxes' sources as files of the emitted design, named by their base names (each once, in the order
 * the design reaches them). Two different files with one name, a file named like a generated one, and a
 * black box named like a generated module are errors at the black box's declaration.
 */
export function blackBoxSourceFiles(design: Design, generated: readonly { path: string }[]): { path: string; text: string }[] {
  const byName = new Map<string, { source: VerilogSource; owner: ModuleIR }>();
  const generatedFiles = new Set(generated.map((f) => f.path));
  const generatedModules = new Map(design.modules.filter((m) => !m.blackBox).map((m) => [m.name, m]));
  for (const owner of design.modules.filter((m) => m.blackBox)) {
    const { verilogName, sources } = owner.blackBox!;
    const clash = generatedModules.get(verilogName);
    if (clash) throw hdlError('InvalidArgument', `black box '${verilogName}' has the name of a module the design generates; rename one`, owner.loc, [{ message: `module ${clash.name} declared here`, loc: clash.loc }]);
    for (const source of sources) {
      const name = basename(source.path);
      if (generatedFiles.has(name)) throw hdlError('BlackBoxSource', `the Verilog source '${source.path}' of black box '${verilogName}' has the name of a generated file (${name}); rename it`, owner.loc);
      const seen = byName.get(name);
      if (!seen) byName.set(name, { source, owner });
      else if (seen.source.text !== source.text) {
        throw hdlError('BlackBoxSource', `two different Verilog sources are both named ${name}: '${seen.source.path}' (black box '${seen.owner.blackBox!.verilogName}') and '${source.path}' (black box '${verilogName}'); the emitted design names files by their base names, so rename one`, owner.loc, [
          { message: `black box '${seen.owner.blackBox!.verilogName}' declared here`, loc: seen.owner.loc },
        ]);
      }
    }
  }
  return [...byName].map(([path, { source }]) => ({ path, text: source.text }));
}
