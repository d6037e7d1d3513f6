// Maps the lines Verilator and Icarus report in generated SystemVerilog back to the TypeScript lines they came from.
import { basename } from 'node:path';
import type { Design } from '../ir/netlist.ts';

/**
 * `output` with each report on a generated file's line followed by the TypeScript place that line came
 * from (its location comment, resolved to the path of a source file of the design). `shown` prints a
 * path (relative to the working directory, as the CLI does).
 */
export function withSourceLines(output: string, design: Design, files: readonly { path: string; text: string }[], shown: (path: string) => string = (p) => p): string {
  const generated = new Map(files.filter((f) => /\.sv$/.test(f.path)).map((f) => [basename(f.path), f.text.split('\n')]));
  const sources = sourceFiles(design);
  return output
    .split('\n')
    .map((line) => {
      // A waiver naming a rule this Verilator does not know (names differ between versions): whose it is.
      const unknown = /^%Error: [\w.$-]+\.vlt:\d+:\d+: Unknown Error Code: (\w+)/.exec(line);
      if (unknown) {
        const owner = design.modules.find((m) => m.blackBox?.lintWaivers?.verilator.includes(unknown[1]!));
        return owner ? `${line} [lintWaivers of black box '${owner.blackBox!.verilogName}' at ${shown(owner.loc.file)}:${owner.loc.line}: this Verilator has no rule ${unknown[1]}]` : line;
      }
      // Verilator: `%Warning-RULE: File.sv:14:9: …`; Icarus: `File.sv:14: warning: …`.
      const m = /(?:^|\s)(?:\.\/)?([\w.$-]+\.sv):(\d+)(?::\d+)?:/.exec(line);
      const lines = m ? generated.get(m[1]!) : undefined;
      const at = lines ? locationComment(lines, Number(m![2]) - 1) : null;
      if (!at) return line;
      const full = sources.get(at[1]!);
      return `${line} [${full ? shown(full) : at[1]}:${at[2]}]`;
    })
    .join('\n');
}

/**
 * The location comment of line `i`, or of the line that opens its statement (an instance's port
 * connections lie below the `Module name ( // file.ts:12` line).
 */
function locationComment(lines: readonly string[], i: number): RegExpExecArray | null {
  for (let k = i; k >= 0 && k > i - 200; k--) {
    const at = / \/\/ (?:at )?([^\s/]+\.[cm]?[jt]sx?):(\d+)$/.exec(lines[k] ?? '');
    if (at) return at;
    if (k < i && /;\s*(\/\/.*)?$/.test(lines[k] ?? '')) return null;
  }
  return null;
}

/** The design's TypeScript files by base name (a name two files share is left out: ambiguous). */
function sourceFiles(design: Design): Map<string, string> {
  const all = new Set<string>();
  for (const m of design.modules) {
    all.add(m.loc.file);
    for (const n of m.nets) all.add(n.loc.file);
  }
  const byName = new Map<string, string | null>();
  for (const f of all) byName.set(basename(f), byName.has(basename(f)) && byName.get(basename(f)) !== f ? null : f);
  return new Map([...byName].filter((e): e is [string, string] => e[1] !== null));
}
