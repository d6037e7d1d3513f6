// `rtgpu run`: assemble a kernel, run it for N pixels on the ISA simulator (or, later, the RT core) and print each result.
import { readFileSync } from 'node:fs';
import { parseFlags, intFlag } from '../args.ts';
import { CliError } from '../cliError.ts';
import { AsmError, assemble } from '../../isa/assembler.ts';
import { HexWordsError, parseHexWords } from '../../isa/hexWords.ts';
import { parseObj, SceneError, type Scene } from '../../golden/scene.ts';
import { defaultScene } from '../../golden/defaultScene.ts';
import { DEFAULT_MAX_INSTRUCTIONS } from '../../golden/iss/index.ts';
import { RUN_SIMS, runBackends, type RunSim } from '../../gpu/run/backends.ts';
import { RunError, type RunJob, type RunResult } from '../../gpu/run/job.ts';

const usage = `usage: rtgpu run PROGRAM [--const FILE] [--scene FILE] [--pixels N] [--sim S] [--json] [--max-instructions N]

Runs the kernel PROGRAM (assembly, or hex words if the name ends in .hex) for pixels 0 .. N-1 and
prints each pixel's returned vector (the 4 words at 0x80(TID)FFF0 when it ended) in hex, then the
instruction and cycle counts. A pixel whose thread faulted is marked 'fault'.

  --const FILE          constant memory from 0x20000000: hex words, one per line
  --scene FILE          triangles for trace, a Wavefront OBJ file (default: the built-in Cornell box)
  --pixels N            pixels to run (default 1)
  --sim S               ${RUN_SIMS.join('|')} (default iss, the ISA simulator); ts runs one RT core
                        in the TS simulator (cycles = core cycles); verilator and icarus replay that
                        run in lockstep and fail if any output differs in any cycle
  --json                print {"cycles","instructions","pixels":[{"pixel","ret"}],"faults"} instead
  --max-instructions N  instructions one thread may run before the run is abandoned (default ${DEFAULT_MAX_INSTRUCTIONS})`;

const MAX_PIXELS = 1 << 24;

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as Error).message}`, 1);
  }
}

/** Run an input parser; its `file:line…` errors become clean exits with status 1 (as in `rtgpu asm`). */
function parseInput<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof AsmError || e instanceof SceneError || e instanceof HexWordsError) throw new CliError(e.message, 1);
    throw e;
  }
}

interface Program {
  readonly words: Uint32Array;
  readonly sourceLines?: Int32Array;
}

function loadProgram(file: string): Program {
  const text = readText(file);
  if (/\.hex$/i.test(file)) return { words: parseInput(() => parseHexWords(text, file)) };
  const { words, sourceLines } = parseInput(() => assemble(text, file));
  return { words, sourceLines };
}

function loadScene(file: string | undefined): Scene {
  if (file === undefined) return defaultScene();
  const text = readText(file);
  return parseInput(() => parseObj(text, file));
}

function chooseSim(value: string | undefined): RunSim {
  const sim = value ?? 'iss';
  if (!(RUN_SIMS as readonly string[]).includes(sim)) throw new CliError(`unknown simulator '${sim}' (choose from ${RUN_SIMS.join(', ')})`);
  return sim as RunSim;
}

const hex8 = (x: number): string => (x >>> 0).toString(16).padStart(8, '0');

function formatText(r: RunResult): string {
  const faulted = new Set(r.faults);
  const lines = r.pixels.map((p) => `pixel ${p.pixel}: ${p.ret.map(hex8).join(' ')}${faulted.has(p.pixel) ? ' fault' : ''}`);
  lines.push(`instructions: ${r.instructions}`, `cycles: ${r.cycles}`);
  if (r.faults.length) lines.push(`faults: ${r.faults.length} (pixels ${r.faults.join(' ')})`);
  return lines.join('\n') + '\n';
}

function formatJson(r: RunResult): string {
  const pixels = r.pixels.map((p) => ({ pixel: p.pixel, ret: p.ret.map(hex8) }));
  return JSON.stringify({ cycles: r.cycles, instructions: r.instructions, pixels, faults: r.faults }) + '\n';
}

async function execute(argv: string[]): Promise<number> {
  const flags = { const: { type: 'string' }, scene: { type: 'string' }, pixels: { type: 'string' }, sim: { type: 'string' }, json: { type: 'boolean' }, 'max-instructions': { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;
  const { values, positionals } = parseFlags(argv, flags, usage);
  if (values.help) {
    console.log(usage);
    return 0;
  }
  if (positionals.length !== 1) throw new CliError(`expected one program file\n\n${usage}`);
  const sim = chooseSim(values.sim);
  const pixels = intFlag('pixels', values.pixels, 1, 1, MAX_PIXELS);
  const maxInstructions = intFlag('max-instructions', values['max-instructions'], DEFAULT_MAX_INSTRUCTIONS, 1);
  const backend = runBackends[sim];
  const file = positionals[0]!;
  const program = loadProgram(file);
  const constants = values.const === undefined ? new Uint32Array(0) : parseInput(() => parseHexWords(readText(values.const!), values.const!));
  const job: RunJob = { program: program.words, sourceFile: file, sourceLines: program.sourceLines, constants, scene: loadScene(values.scene), pixels, maxInstructions };
  const result = await backend(job);
  process.stdout.write(values.json ? formatJson(result) : formatText(result));
  return 0;
}

export const runCommand = {
  summary: "run a kernel for N pixels and print each pixel's result",
  async run(argv: string[]): Promise<number> {
    try {
      return await execute(argv);
    } catch (e) {
      if (e instanceof RunError) throw new CliError(e.message, 1);
      throw e;
    }
  },
};
