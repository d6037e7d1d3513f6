// Yosys scripts for a handoff directory: run from its root, each synthesizes one top and tees its statistics under build/.
import { BUILD_DIR } from './fpgaProject.ts';
import { yosysScript, type SynthTarget, type YosysScriptOptions } from './targets.ts';

export interface YosysSource {
  readonly top: string;
  /** The .sv files in dependency order, relative to the directory the script runs from. */
  readonly files: readonly string[];
}

export function yosysReportPath(target: SynthTarget, top: string): string {
  return `${BUILD_DIR}/yosys/${top}_${target}.txt`;
}

/**
 * The script: `comments` first, then the reads and synthesis, ending with `stat` teed to the report.
 * `generic` keeps memories as $mem_v2 cells: a plain `synth` turns them into flip-flops, and for
 * rtgpu_top's 2 MiB main memory (16 M of them) it grew past 20 GB without finishing. `opts` may keep
 * the hierarchy (a module is synthesized once however many instances it has, and `stat` reports each)
 * and leave out I/O and clock buffers (a core inside a chip).
 */
export function yosysHandoffScript(target: SynthTarget, src: YosysSource, comments: readonly string[], opts: Pick<YosysScriptOptions, 'flatten' | 'noIo'> = {}): string {
  const stat = `tee -o ${yosysReportPath(target, src.top)} stat`;
  const body = yosysScript(target, src.top, src.files, { ...opts, keepMemories: true, after: [stat] });
  // tee does not create directories; `!` runs a shell command from the script.
  return [...comments.map((c) => `# ${c}`), `! mkdir -p ${BUILD_DIR}/yosys`, body].join('\n');
}
