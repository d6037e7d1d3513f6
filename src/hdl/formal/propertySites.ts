// Where each eDSL property sits in the emitted SystemVerilog, per instance, and which one a yosys-smtbmc message names.
import { basename } from 'node:path';
import type { EmittedDesign } from '../emit/index.ts';
import type { Design, ModuleIR, Property } from '../ir/netlist.ts';
import { findModule, topModule } from '../ir/netlist.ts';
import { propertyWhere } from '../sim/propertyCheck.ts';
import type { PropertyRef } from './proofResult.ts';

/** One property of one instance. */
export interface PropertySite {
  readonly ref: PropertyRef;
  /** The SV identifiers of the instances from the top down, joined by '.' ('' for the top's own). */
  readonly svPath: string;
  /** The module's emitted file (`Leaf.sv`) and the line of its formal statement there. */
  readonly file: string;
  readonly line: number;
}

/** `    if (en) assert (c != 4'd12); // counter.ts:8` in a module's `ifdef FORMAL block. */
const FORMAL_STATEMENT = /^\s*(?:if \(.*\) )?(assert|assume|cover) \(.*\);(?:\s*\/\/ (?:at )?(\S+:\d+))?\s*$/;

/** The properties the formal flow checks: all but X checks (it is two-state). */
function formalProperties(mod: ModuleIR): Property[] {
  return (mod.properties ?? []).filter((p) => p.known === undefined);
}

/**
 * The line of each property of `mod` in its emitted text: the formal block's statements, matched to the
 * properties by kind and TypeScript line (properties of one kind on one line in declaration order).
 */
function formalLines(mod: ModuleIR, text: string): Map<Property, number> {
  const lines = text.split('\n');
  const start = lines.indexOf('`ifdef FORMAL');
  const byKey = new Map<string, number[]>();
  for (let i = start + 1; start >= 0 && i < lines.length && lines[i] !== '`endif'; i++) {
    const m = FORMAL_STATEMENT.exec(lines[i]!);
    if (!m) continue;
    const key = `${m[1]} ${m[2] ?? ''}`;
    byKey.set(key, [...(byKey.get(key) ?? []), i + 1]);
  }
  const out = new Map<Property, number>();
  for (const p of formalProperties(mod)) {
    // A property made at no line of the user's (line 0) has no comment.
    const line = byKey.get(`${p.kind} ${p.loc.line > 0 ? `${basename(p.loc.file)}:${p.loc.line}` : ''}`)?.shift();
    if (line === undefined) throw new Error(`${mod.name}.sv has no formal statement for ${p.kind} ${p.name} (${basename(p.loc.file)}:${p.loc.line}): the emitter and the formal flow disagree`);
    out.set(p, line);
  }
  return out;
}

/** Every property of every instance of the design, with its place in the emitted SystemVerilog. */
export function propertySites(design: Design, emitted: EmittedDesign): PropertySite[] {
  const texts = new Map(emitted.files.map((f) => [f.path, f.text]));
  const linesOf = new Map<string, Map<Property, number>>();
  const out: PropertySite[] = [];
  const walk = (mod: ModuleIR, irPrefix: string, svPrefix: string) => {
    if (mod.blackBox) return;
    const file = `${mod.name}.sv`;
    let lines = linesOf.get(mod.name);
    if (!lines) {
      lines = formalLines(mod, texts.get(file) ?? '');
      linesOf.set(mod.name, lines);
    }
    for (const p of formalProperties(mod)) {
      const path = irPrefix + p.name;
      const ref: PropertyRef = { name: `${design.top}.${path}`, path, kind: p.kind, where: propertyWhere(p), ...(p.message === undefined ? {} : { message: p.message }) };
      out.push({ ref, svPath: svPrefix.replace(/\.$/, ''), file, line: lines.get(p)! });
    }
    for (const inst of mod.instances) {
      const id = emitted.identifiers[mod.name]?.[inst.name] ?? inst.name;
      walk(findModule(design, inst.module), `${irPrefix}${inst.name}.`, `${svPrefix}${id}.`);
    }
  };
  walk(topModule(design), '', '');
  return out;
}

/**
 * The property a yosys-smtbmc message describes. The message gives the cell's source chain and name,
 * `Top.sv:31.8-37.4|Leaf.sv:38.30-39.30 ($flatten/u1.$assert$Leaf.sv:38$31)` (after `flatten`): the cell
 * name holds the instance path and the module's file; the chain's part in that file ends on the statement's line.
 */
export function siteOf(sites: readonly PropertySite[], description: string): PropertySite | undefined {
  const m = /^(\S+)\s+\((.*)\)\.?$/.exec(description.trim());
  if (!m) return undefined;
  const cell = /^(.*?)\$(assert|assume|cover)\$([^:$]+):\d+\$\d+$/.exec(m[2]!);
  if (!cell) return undefined;
  const file = cell[3]!;
  const svPath = cell[1]!
    .replace(/^\$flatten/, '')
    .split(/[./\\]+/)
    .filter((s) => s !== '')
    .join('.');
  const part = m[1]!.split('|').find((s) => s.startsWith(`${file}:`));
  const line = part && /[-:](\d+)\.\d+$/.exec(part)?.[1];
  if (line === undefined) return undefined;
  return sites.find((s) => s.file === file && s.line === Number(line) && s.svPath === svPath && s.ref.kind === cell[2]);
}

/** The property a message describes, or (a property of a black box's own Verilog) one named by the message. */
export function propertyOf(sites: readonly PropertySite[], description: string, kind: PropertyRef['kind']): PropertyRef {
  const site = siteOf(sites, description);
  if (site) return site.ref;
  const where = description.split(' ')[0] ?? description;
  return { name: description, path: description, kind, where };
}
