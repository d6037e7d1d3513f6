// Tool messages that point into the generated SystemVerilog, annotated with the TypeScript line behind each.
import { relative } from 'node:path';
import type { ExternalDesign } from './externalDesign.ts';

/**
 * The TypeScript line behind a line of a module's SV: that of the first signal the line names (an assign
 * names what it drives first), else the line's own `// file.ts:N` comment.
 */
function tsLineOf(x: ExternalDesign, file: string, line: number): string | null {
  const mod = file.replace(/\.sv$/, '');
  const text = x.emitted.files.find((f) => f.path === file)?.text.split('\n')[line - 1];
  const module = x.design.modules.find((m) => m.name === mod);
  if (!text || !module) return null;
  const bySv = new Map(Object.entries(x.emitted.identifiers[mod] ?? {}).map(([ts, sv]) => [sv, ts]));
  const code = text.replace(/\/\/.*$/, '');
  for (const id of code.match(/[A-Za-z_][A-Za-z0-9_$]*/g) ?? []) {
    const ts = bySv.get(id);
    const loc = ts === undefined ? undefined : (module.nets.find((n) => n.name === ts) ?? module.memories.find((m) => m.name === ts) ?? module.instances.find((i) => i.name === ts))?.loc;
    if (loc && loc.line > 0) return `${relative(process.cwd(), loc.file) || loc.file}:${loc.line}`;
  }
  const comment = text.match(/\/\/ ([^\s:]+\.[mc]?[jt]s):(\d+)/);
  return comment ? `${comment[1]}:${comment[2]}` : null;
}

/**
 * The tail of a tool's output with every `Module.sv:line` reference followed by the TypeScript source
 * line of that SystemVerilog line, so that an error in generated code leads back to the description.
 */
export function annotateToolOutput(output: string, x: ExternalDesign, maxChars = 4000): string {
  const tail = output.length > maxChars ? `…${output.slice(-maxChars)}` : output;
  return tail
    .split('\n')
    .map((l) => {
      const m = l.match(/([A-Za-z_][A-Za-z0-9_$]*\.sv):(\d+)/);
      if (!m) return l;
      const ts = tsLineOf(x, m[1]!, Number(m[2]));
      return ts ? `${l}\n    (generated from ${ts})` : l;
    })
    .join('\n');
}
