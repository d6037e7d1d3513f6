// What a simulator prints when a property fails (the emitted `$error`): the TypeScript line, the kind,
// name and message, and the values of the signals the condition reads; and reading that text back.
import { basename } from 'node:path';
import type { ModuleIR, NetId, Property } from '../ir/netlist.ts';
import { propertySupport } from '../ir/propertySupport.ts';

/** The head of the text: the TypeScript line, its kind, name and message (the TS simulator says the same). */
export function propertyFailureText(p: Property, module: string): string {
  const what = p.kind === 'assume' ? 'assumption' : 'assertion';
  return `${basename(p.loc.file)}:${p.loc.line}: ${what} ${module}.${p.name} failed${p.message ? `: ${p.message}` : ''}`;
}

/**
 * The arguments of the `$error` of a failed property of `mod`: the text, then ` (name = W'hVALUE, …)`
 * with the values before the edge of the signals its condition reads (as the TS simulator shows them;
 * the engines print them, so that every engine reports them, registers and internal nets included).
 * `text` gives a net's SV expression.
 */
export function propertyDisplayArguments(mod: ModuleIR, p: Property, text: (id: NetId) => string): string {
  const shown = propertySupport(mod, p);
  const values = shown.map((id) => `${displayString(mod.nets[id]!.name)} = ${mod.nets[id]!.width}'h%h`);
  const format = `${displayString(propertyFailureText(p, mod.name))}${values.length ? ` (${values.join(', ')})` : ''}`;
  return [`"${format}"`, ...shown.map((id) => text(id))].join(', ');
}

/** `text` as the inside of a Verilog string literal that `$error` prints as is. */
function displayString(text: string): string {
  return text
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/%/g, '%%')
    .replace(/[\r\n]+/g, ' ');
}

/** The property a printed failure names: `file.ts:12: assertion Module.name failed…`; null for other text. */
export function printedProperty(text: string): { readonly module: string; readonly name: string } | null {
  const m = /^\S+?:\d+: (?:assertion|assumption) (\S+)\.([A-Za-z_][A-Za-z0-9_]*) failed/.exec(text);
  return m ? { module: m[1]!, name: m[2]! } : null;
}

/**
 * The values a printed failure of `p` (a property of `mod`) shows, by the net's name in `mod`: `known`
 * those of 0 and 1 bits only, `unknown` those with X or Z bits (Icarus) as printed (`8'hx3`).
 */
export function printedValues(mod: ModuleIR, p: Property, text: string): { readonly known: Map<string, bigint>; readonly unknown: Map<string, string> } {
  const shown = propertySupport(mod, p).map((id) => mod.nets[id]!);
  const out = { known: new Map<string, bigint>(), unknown: new Map<string, string>() };
  if (!shown.length) return out;
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = shown.map((n) => `${escape(n.name)} = ${n.width}'h([0-9a-fA-FxXzZ]+)`).join(', ');
  const m = new RegExp(` \\(${pattern}\\)$`).exec(text);
  if (!m) return out;
  shown.forEach((n, i) => {
    const digits = m[i + 1]!;
    if (/[xXzZ]/.test(digits)) out.unknown.set(n.name, `${n.width}'h${digits}`);
    else out.known.set(n.name, BigInt(`0x${digits}`));
  });
  return out;
}
