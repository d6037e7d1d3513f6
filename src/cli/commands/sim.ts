// `rtgpu sim`: run a testbench file on any simulator (the TS simulator, Verilator, Icarus, or several in lockstep).
import { resolve } from 'node:path';
import { compileSimulator, simulatorBackends, type Simulator, type SimulatorOptions } from '../../hdl/sim/index.ts';
import { Testbench, seedFromEnv } from '../../hdl/testbench/index.ts';
import { intFlag, parseFlags } from '../args.ts';
import { CliError } from '../cliError.ts';
import { loadTestbenchFile, shownPath, userError } from '../designFile.ts';
import { buildLog } from '../progress.ts';
import { emitSystemVerilog, type Design } from '../../hdl/index.ts';
import { RecordingSimulator, portableTestbench } from '../../hdl/cosim/index.ts';
import { checkWritable, withMarker, writeRtl } from '../../designs/generatedDir.ts';

const single = simulatorBackends.filter((b) => b !== 'lockstep');

const usage = `usage: rtgpu sim TESTBENCH.ts [--sim S] [--vcd FILE] [--seed N] [--max-cycles N] [--portable DIR]

Runs a testbench file: it exports its design ('export const design = elaborate(Top, params).design',
or the module and 'params' as a design file does) and its body
('export default async function (tb: Testbench) { … }'). Prints PASS with the cycles it took, or
FAIL with the error at your line (exit status 1).

  --sim S          ts (the TS simulator: WebAssembly where it can, the default), ${single.join(', ')},
                   lockstep (ts, Verilator and Icarus compared every cycle), or a comma list run in lockstep
  --vcd FILE       write a waveform (lockstep: FILE with .<simulator> before .vcd)
  --seed N         the testbench's seed (tb.rng; default: SEED from the environment, else random, printed)
  --max-cycles N   cycles the testbench may take (default: its exported 'maxCycles', else 1,000,000)
  --portable DIR   after a PASS, also write the run as a self-checking SystemVerilog testbench for any
                   simulator without Node: DIR/tb_<top>.sv and .vec (every input of every cycle, every
                   output checked), beside the design's SystemVerilog and DIR/<top>.f`;

/** The simulator options `--sim` names. */
type MemberOptions = Exclude<SimulatorOptions, { backend: 'lockstep' }>;

export function simChoice(text: string | undefined, trace: boolean): SimulatorOptions {
  const one = (name: string): MemberOptions => {
    if (name === 'ts') return {};
    if (!(single as readonly string[]).includes(name)) throw new CliError(`--sim: unknown simulator '${name}' (choose from ts, ${simulatorBackends.join(', ')}, or a comma list)`);
    return name === 'verilator' ? { backend: 'verilator', trace, log: buildLog() } : name === 'icarus' ? { backend: 'icarus', log: buildLog() } : { backend: name as 'js' | 'wasm' };
  };
  if (text === undefined) return {};
  if (text === 'lockstep') return { backend: 'lockstep', backends: [{}, one('verilator'), one('icarus')], log: buildLog() };
  if (!text.includes(',')) return one(text);
  const list = text.split(',').map((s) => s.trim());
  if (new Set(list).size !== list.length) throw new CliError(`--sim ${text}: a simulator is listed twice`);
  return { backend: 'lockstep', backends: list.map(one), log: buildLog() };
}

export const simCommand = {
  summary: 'run a testbench file on a simulator',
  async run(argv: string[]): Promise<number> {
    const { values, positionals } = parseFlags(
      argv,
      { sim: { type: 'string' }, vcd: { type: 'string' }, seed: { type: 'string' }, 'max-cycles': { type: 'string' }, portable: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      usage,
    );
    if (values.help) {
      console.log(usage);
      return 0;
    }
    if (positionals.length !== 1) throw new CliError(`expected one testbench file\n\n${usage}`);
    const options = simChoice(values.sim, values.vcd !== undefined);
    const seed = values.seed === undefined ? seedFromEnv() : intFlag('seed', values.seed, 0, 0, 0xffffffff);
    if (values.portable !== undefined) checkWritable(values.portable, false);
    const tbFile = await loadTestbenchFile(positionals[0]!);
    const maxCycles = intFlag('max-cycles', values['max-cycles'], tbFile.maxCycles ?? 1_000_000, 1);
    let engine: Simulator;
    try {
      engine = await compileSimulator(tbFile.design, options);
    } catch (e) {
      throw new CliError((e as Error).message, 1);
    }
    const sim = values.portable === undefined ? engine : new RecordingSimulator(engine, tbFile.design);
    const engines = values.sim === 'lockstep' ? 'ts,verilator,icarus' : values.sim;
    const label = `${shownPath(tbFile.file)} on ${sim.backend === 'lockstep' ? `lockstep ${engines}` : sim.backend}`;
    try {
      if (values.vcd) sim.traceVcd(resolve(values.vcd));
      const tb = new Testbench(sim, { seed });
      const t0 = performance.now();
      try {
        await tb.run(() => tbFile.body(tb), { maxCycles });
      } catch (e) {
        console.log(`FAIL: ${label}, seed ${seed}, at cycle ${sim.cycle}`);
        throw userError(tbFile.file, e);
      }
      console.log(`PASS: ${label}: ${sim.cycle} cycles in ${((performance.now() - t0) / 1000).toFixed(2)} s (seed ${seed})`);
      if (sim instanceof RecordingSimulator) writePortable(values.portable!, tbFile.design, sim, `${shownPath(tbFile.file)}, seed ${seed}`);
      return 0;
    } finally {
      sim.close();
    }
  },
};

/** The recorded run as a portable testbench beside the design's SystemVerilog and file list. */
function writePortable(dir: string, design: Design, run: RecordingSimulator, what: string): void {
  const emitted = emitSystemVerilog(design);
  const tb = portableTestbench(design, run.recording(), { emitted, description: `the testbench ${what}, recorded by rtgpu sim` });
  const files = [...emitted.files, { path: `${design.top}.f`, text: emitted.fileList.map((f) => `${f}\n`).join('') }, ...tb.files];
  writeRtl(dir, withMarker(files, 'Generated by `rtgpu sim --portable`. Writing again replaces the files listed below and leaves others alone.'), false);
  console.log(`wrote ${dir}/${tb.name}.sv and ${tb.name}.vec (${tb.cycles} cycles) beside ${design.top}'s SystemVerilog`);
}
