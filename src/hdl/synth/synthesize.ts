// Synthesizes an RTL source for a target with Yosys and reports resources per module, memory mapping and logic depth.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cellPatterns, nonLevelClasses, pathClasses } from './cellTable.ts';
import { parseLtp, parseLtpLengths, parseMemories, parseSelectList, parseStat, withSubmoduleLutLevels, type SynthReport } from './report.ts';
import { inRtlDir, moduleOfFile, type RtlSource } from './rtlSource.ts';
import { synthTargets, yosysScript, type SynthTarget } from './targets.ts';
import { runYosys, yosysIdentity, type YosysProgress } from '../tools/yosys.ts';

export interface SynthOptions {
  /** Modules (from the source's file list) read as black boxes: instantiated, not synthesized, not counted. */
  readonly blackboxes?: readonly string[];
  /** Logic depth of every module (default), of the top only, or none (saves flattening a large design). */
  readonly depth?: 'all' | 'top' | 'none';
  /** Run in this directory and leave the sources, script, log and outputs there. */
  readonly workDir?: string;
  readonly onProgress?: (p: YosysProgress) => void;
}

/**
 * The report commands run after synthesis of the hierarchical netlist, each teeing its output into a file
 * of its own (the WebAssembly Yosys cannot append to a file): memory cells per cell type pattern, then
 * per module the longest path and the carry and mux cells it may run through.
 */
function reportCommands(target: SynthTarget, modules: readonly string[], depthOf: readonly string[]) {
  const memoryCells = cellPatterns(target, ['bram', 'lutram']).map((pattern, i) => ({ pattern, file: `memcells${i}.txt`, command: `select -list t:${pattern}` }));
  const path = cellPatterns(target, pathClasses);
  const fast = cellPatterns(target, nonLevelClasses);
  const luts = cellPatterns(target, ['lut']);
  // Bottom-up, each module is flattened once its children are flat, and measured with ltp on the
  // LUT, carry and mux cells only (registers, RAM and DSP blocks end paths: ltp does not know them).
  // ltp counts cells: its longest path is often a carry chain, so a second ltp over the LUTs alone
  // finds the deepest LUT logic (a multiplier beside an accumulator's carry chain).
  const depth = modules
    .filter((m) => depthOf.includes(m))
    .map((module, i) => ({
      module,
      flatten: `flatten ${module}`,
      ltp: { file: `depth${i}.txt`, command: `ltp -noff ${module}/w:* ${path.map((p) => `${module}/t:${p}`).join(' ')}` },
      lutLtp: fast.length && luts.length ? { file: `lutdepth${i}.txt`, command: `ltp -noff ${module}/w:* ${luts.map((p) => `${module}/t:${p}`).join(' ')}` } : undefined,
      fast: fast.length ? { file: `fast${i}.txt`, command: `select -list ${fast.map((p) => `${module}/t:${p}`).join(' ')}` } : undefined,
    }));
  const tee = (o: { file: string; command: string }) => `tee -q -o ${o.file} ${o.command}`;
  const commands = [
    tee({ file: 'stat.json', command: 'stat -json' }),
    ...memoryCells.map(tee),
    ...depth.flatMap((d) => [d.flatten, tee(d.ltp), ...(d.lutLtp ? [tee(d.lutLtp)] : []), ...(d.fast ? [tee(d.fast)] : [])]),
  ];
  return { commands, memoryCells, depth };
}

const readIf = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');

/** Synthesizes `src` for `target`, keeping the hierarchy, and reports every module under the top. */
export async function synthesize(src: RtlSource, target: SynthTarget, opts: SynthOptions = {}): Promise<SynthReport> {
  const blackboxes = new Set(opts.blackboxes ?? []);
  const libFiles = src.fileList.filter((f) => blackboxes.has(moduleOfFile(f)));
  const files = src.fileList.filter((f) => !blackboxes.has(moduleOfFile(f)));
  const modules = files.map(moduleOfFile);
  const depth = opts.depth ?? 'all';
  const depthOf = depth === 'all' ? modules : depth === 'top' ? [src.top] : [];
  const report = reportCommands(target, modules, depthOf);
  const script = yosysScript(target, src.top, files, {
    flatten: false,
    noIo: true,
    keepMemories: true,
    libFiles,
    before: ['tee -q -o memories.txt select -list m:*'],
    after: report.commands,
  });
  const version = await yosysIdentity();
  return inRtlDir(
    src,
    async (dir) => {
      const outputs = ['memories.txt', 'stat.json', ...report.memoryCells.map((c) => c.file), ...report.depth.flatMap((d) => [d.ltp.file, d.lutLtp?.file ?? '', d.fast?.file ?? ''])];
      // A reused work directory may hold a previous run's outputs.
      for (const f of outputs.filter(Boolean)) rmSync(join(dir, f), { force: true });
      const run = await runYosys(script, { cwd: dir, onProgress: opts.onProgress });
      const read = (f: string) => readIf(join(dir, f));
      const depths = parseLtp(
        report.depth.map((d) => read(d.ltp.file)).join('\n'),
        new Map(report.depth.map((d) => [d.module, d.fast ? (parseSelectList(read(d.fast.file)).get(d.module) ?? []) : []])),
        parseLtpLengths(report.depth.map((d) => (d.lutLtp ? read(d.lutLtp.file) : '')).join('\n')),
      );
      const modules = withSubmoduleLutLevels(parseStat(target, src.top, read('stat.json')).map((m) => ({ ...m, depth: depths.get(m.module) })));
      return {
        target,
        top: src.top,
        modules,
        total: modules[0]!.total,
        // Only memories of modules the top keeps (not of modules below a black box or unused).
        memories: parseMemories(target, read('memories.txt'), new Map(report.memoryCells.map((c) => [c.pattern, read(c.file)]))).filter((m) => modules.some((x) => x.module === m.module)),
        yosys: `${version}, ${synthTargets[target].yosysCommand}`,
        elapsedMs: run.elapsedMs,
      };
    },
    opts.workDir,
  );
}
