// Yosys' generic gate-level netlist of an RTL source, for post-synthesis simulation: module by module, each cached by content.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedBuild, contentHash } from '../tools/buildCache.ts';
import { moduleOfFile, type RtlSource } from './rtlSource.ts';
import { yosysScript } from './targets.ts';
import { runYosys, yosysIdentity } from '../tools/yosys.ts';

/** The file each module's netlist is written to. */
const NETLIST_FILE = 'netlist.v';

/**
 * `synth` of one module for Yosys' internal gates, its submodules read as black boxes (the hierarchy
 * is kept, as `synth` does without `-flatten`), memories kept as `$mem_v2` (FPGA flows map them to
 * block RAM, not to flip-flops), written as plain Verilog: gates as expressions, flip-flops and
 * memories as always blocks, so any Verilog simulator runs it without Yosys' cell library.
 *
 * `-formal` (which does not define SYNTHESIS) keeps the power-on values: the emitter puts them in
 * `ifndef SYNTHESIS` initial blocks, which Yosys would otherwise skip and leave every flip-flop and memory word X. Read, they
 * become `init` values (`reg q = 0;` in the netlist): what an FPGA's configuration loads into its
 * flip-flops and block RAM, and what the TS simulator assumes (netlist.ts: Reg.init). With
 * `registerPowerOn: false` the flip-flops lose theirs (`setattr -unset init` after `proc` turned the
 * initial blocks into attributes; memories keep their contents): an ASIC's flip-flops, where only the
 * reset defines a register.
 */
export function moduleNetlistScript(file: string, submoduleFiles: readonly string[], registerPowerOn = true): string {
  // Properties are not hardware: read as formal cells (which also keeps SYNTHESIS undefined) and removed.
  const before = ['chformal -remove', ...(registerPowerOn ? [] : ['proc', 'setattr -unset init w:*'])];
  const opts = { flatten: false, keepMemories: true, libFiles: submoduleFiles, before, after: [`write_verilog -noattr ${NETLIST_FILE}`] };
  return 'verilog_defaults -add -formal\n' + yosysScript('generic', moduleOfFile(file), [file], opts);
}

export interface GateNetlist {
  readonly top: string;
  /** Every module of the source, children first, as gates. */
  readonly text: string;
  /** Seconds Yosys took for the modules not in the cache. */
  readonly seconds: number;
  /** Modules synthesized now, and taken from the cache. */
  readonly synthesized: number;
  readonly cached: number;
}

/** For each file of the list, the earlier files whose modules it instantiates (`  Module inst (`), transitively. */
function submodules(src: RtlSource): Map<string, string[]> {
  const text = new Map(src.files.map((f) => [f.path, f.text]));
  const result = new Map<string, string[]>();
  src.fileList.forEach((file, i) => {
    const direct = src.fileList.slice(0, i).filter((f) => new RegExp(`^\\s*${moduleOfFile(f)}\\s+\\w+\\s*\\(`, 'm').test(text.get(file) ?? ''));
    const all = new Set(direct.flatMap((f) => [...result.get(f)!, f]));
    result.set(file, src.fileList.filter((f) => all.has(f)));
  });
  return result;
}

/**
 * Synthesizes every module of `src` (sources and `$readmemh` images) into gates. A module is
 * synthesized once per content: a float unit shared by several designs is built once.
 */
export async function gateNetlist(src: RtlSource, log?: (line: string) => void, opts: { registerPowerOn?: boolean } = {}): Promise<GateNetlist> {
  const identity = await yosysIdentity();
  const subs = submodules(src);
  const parts: string[] = [];
  let seconds = 0;
  let synthesized = 0;
  for (const file of src.fileList) {
    const module = moduleOfFile(file);
    const libFiles = subs.get(file)!;
    const script = moduleNetlistScript(file, libFiles, opts.registerPowerOn ?? true);
    // The module's own memory images are named after it (memoryImage.ts: `Module_memory.hex`).
    const inputs = src.files.filter((f) => f.path === file || libFiles.includes(f.path) || (f.path.startsWith(`${module}_`) && f.path.endsWith('.hex')));
    const key = contentHash([identity, script, ...inputs.flatMap((f) => [f.path, f.text])]);
    const { dir, cached } = await cachedBuild('yosys-netlist', key, async (tmp) => {
      log?.(`yosys: synthesizing ${module}`);
      for (const f of inputs) writeFileSync(join(tmp, f.path), f.text);
      seconds += (await runYosys(script, { cwd: tmp, quiet: true })).elapsedMs / 1000;
    });
    if (!cached) synthesized++;
    parts.push(readFileSync(join(dir, NETLIST_FILE), 'utf8'));
  }
  const text = parts.join('\n');
  // Expression mode writes every internal cell as Verilog; an instance left over (`\$print`, a
  // formal cell) would need Yosys' simlib.v, which the simulation does not load.
  const cell = /^\s*\\\$(\S+)\s/m.exec(text);
  if (cell) throw new Error(`the netlist of ${src.top} instantiates the Yosys cell $${cell[1]}, which plain Verilog simulation does not model`);
  return { top: src.top, text, seconds, synthesized, cached: src.fileList.length - synthesized };
}
