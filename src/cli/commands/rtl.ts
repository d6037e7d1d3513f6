// `rtgpu rtl`: write the generated SystemVerilog of every design to a directory, or check it is up to date.
import { parseFlags } from '../args.ts';
import { CliError } from '../cliError.ts';
import { allDesigns } from '../../designs/index.ts';
import { rtlDifferences, rtlFiles, writeRtl } from '../../designs/rtlOutput.ts';

const usage = `usage: rtgpu rtl [--out DIR] [--check] [--force]

  --out DIR   output directory (default rtl-out)
  --check     do not write; exit 1 if DIR differs from what would be generated
  --force     write into a non-empty directory that rtgpu did not generate`;

export const rtlCommand = {
  summary: 'write generated SystemVerilog',
  async run(argv: string[]): Promise<number> {
    const { values, positionals } = parseFlags(argv, { out: { type: 'string' }, check: { type: 'boolean' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, usage);
    if (values.help) {
      console.log(usage);
      return 0;
    }
    if (positionals.length) throw new CliError(`unexpected argument '${positionals[0]}'\n\n${usage}`);
    const dir = values.out ?? 'rtl-out';
    const files = rtlFiles(await allDesigns());
    if (values.check) {
      const diffs = rtlDifferences(dir, files);
      if (diffs.length) {
        console.log(`${dir} is out of date (run 'npm run rtl'):\n${diffs.map((d) => `  ${d}`).join('\n')}`);
        return 1;
      }
      console.log(`${dir} is up to date (${files.length} files)`);
      return 0;
    }
    writeRtl(dir, files, values.force ?? false);
    console.log(`wrote ${files.length} files to ${dir}`);
    return 0;
  },
};
