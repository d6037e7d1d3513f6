// `rtgpu disasm`: print hex (or raw binary) words as assembly that `rtgpu asm` turns back into the same words.
import { parseFlags } from '../args.ts';
import { CliError } from '../cliError.ts';
import { disassemble } from '../../isa/disassembler.ts';
import { HexWordsError, parseHexWords, wordsFromBytes } from '../../isa/hexWords.ts';
import { checkFormat, readInput, refuseToOverwrite, writeOutput, type WordsPlan } from './asm.ts';
import { HELP, defineCommand, type HelpPlan } from '../command.ts';

const usage = `usage: rtgpu disasm [FILE] [-o OUT] [--format hex|bin]

Disassembles FILE (default: standard input), one line per word with its address in a comment.
Words that are not instructions the assembler would produce print as '.word 0x…'.

  -o OUT        write the assembly to OUT (default: standard output)
  --format F    hex: words in hex, one or more per line, '//' and '#' comments (default);
                bin: raw 32-bit little-endian words`;

const options = { output: { type: 'string', short: 'o' }, format: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

export function parseDisasmArgs(argv: string[]): WordsPlan | HelpPlan {
  const { values, positionals } = parseFlags(argv, options, usage);
  if (values.help) return HELP;
  if (positionals.length > 1) throw new CliError(`expected at most one input file\n\n${usage}`);
  return { input: positionals[0], output: values.output, format: checkFormat(values.format) };
}

async function execute({ input, output, format }: WordsPlan): Promise<number> {
  const name = input ?? '<stdin>';
  if (output !== undefined && input !== undefined) refuseToOverwrite(input, output);
  const data = readInput(input);
  let words: Uint32Array;
  try {
    words = format === 'bin' ? wordsFromBytes(data, name) : parseHexWords(data.toString('utf8'), name);
  } catch (e) {
    if (e instanceof HexWordsError) throw new CliError(e.message, 1);
    throw e;
  }
  const text = disassemble(words);
  if (output === undefined) process.stdout.write(text);
  else writeOutput(output, text);
  return 0;
}

export const disasmCommand = defineCommand({ summary: 'disassemble hex words back to assembly', usage, options, parse: parseDisasmArgs, execute });
