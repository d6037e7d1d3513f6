// `rtgpu cosim`: run a registered design in lockstep on the chosen simulators and report the first mismatch.
import { parseFlags, intFlag } from '../args.ts';
import { CliError } from '../cliError.ts';
import { allDesigns, findDesign } from '../../designs/index.ts';
import { runCosim, formatMismatch } from '../../hdl/cosim/runCosim.ts';
import { seedFromEnv } from '../../hdl/testbench/rng.ts';
import { simulatorNames, type SimulatorName } from '../../hdl/cosim/backends.ts';

const usage = `usage: rtgpu cosim <design> [--cycles N] [--seed S] [--sim ts,verilator,icarus] [--registers]
       rtgpu cosim --list

  --cycles N    cycles to simulate (default 10000)
  --seed S      stimulus seed (default: random, printed)
  --sim LIST    comma-separated simulators (default ts,verilator,icarus); icarus-gate runs
                Icarus on the gate-level netlist Yosys synthesizes (post-synthesis simulation)
  --registers   also compare every register in the hierarchy, every cycle (not with icarus-gate)
  --list        list the designs`;

export const cosimCommand = {
  summary: 'run a design in lockstep on several simulators',
  async run(argv: string[]): Promise<number> {
    const { values, positionals } = parseFlags(
      argv,
      {
        cycles: { type: 'string' },
        seed: { type: 'string' },
        sim: { type: 'string' },
        list: { type: 'boolean' },
        registers: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      usage,
    );
    if (values.help) {
      console.log(usage);
      return 0;
    }
    if (values.list) {
      const designs = await allDesigns();
      const w = Math.max(...designs.map((d) => d.name.length));
      for (const d of designs) console.log(`${d.name.padEnd(w)}  ${d.description}`);
      return 0;
    }
    if (positionals.length !== 1) throw new CliError(`expected one design name\n\n${usage}`);
    const design = await findDesign(positionals[0]!);
    const cycles = intFlag('cycles', values.cycles, 10000, 1, 100_000_000);
    const seed = values.seed === undefined ? seedFromEnv() : intFlag('seed', values.seed, 0, 0, 0xffffffff);
    const sims = parseSims(values.sim ?? 'ts,verilator,icarus');
    console.log(`cosim ${design.name}: ${cycles} cycles, seed ${seed}, on ${sims.join(', ')}`);
    const report = await runCosim(design, { cycles, seed, sims, compareRegisters: values.registers ?? false, log: (l) => console.log(`  ${l}`) });
    const times = Object.entries(report.seconds)
      .map(([s, t]) => `${s} ${t.toFixed(3)} s`)
      .join(', ');
    if (report.mismatch) {
      console.log(formatMismatch(report.mismatch));
      console.log(`rerun: rtgpu cosim ${design.name} --cycles ${cycles} --seed ${seed} --sim ${sims.join(',')}${values.registers ? ' --registers' : ''}`);
      return 1;
    }
    if (report.golden) {
      console.log(`golden model disagrees at cycle ${report.golden.cycle}: ${report.golden.message}`);
      console.log(`rerun: rtgpu cosim ${design.name} --cycles ${cycles} --seed ${seed} --sim ${sims.join(',')}`);
      return 1;
    }
    console.log(`  (${times})`);
    console.log(`${cycles} cycles, 0 mismatches${values.registers ? ' (outputs and registers)' : ''}`);
    return 0;
  },
};

function parseSims(list: string): SimulatorName[] {
  const sims = list.split(',').map((s) => s.trim()).filter(Boolean);
  if (sims.length === 0) throw new CliError('--sim needs at least one simulator');
  for (const s of sims) {
    if (!(simulatorNames as readonly string[]).includes(s)) throw new CliError(`unknown simulator '${s}' (choose from ${simulatorNames.join(', ')})`);
  }
  if (new Set(sims).size !== sims.length) throw new CliError('--sim lists a simulator twice');
  return sims as SimulatorName[];
}
