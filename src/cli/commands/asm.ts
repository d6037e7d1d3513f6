// `rtgpu asm`: assemble RT core assembly into hex text (one word per line) or raw little-endian words.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseFlags } from '../args.ts';
import { CliError } from '../cliError.ts';
import { HELP, defineCommand, type HelpPlan } from '../command.ts';
import { sameFile } from '../inputFiles.ts';
import { AsmError, assemble } from '../../isa/assembler.ts';
import { checkFitsInstructionMemory } from '../../isa/instructionMemory.ts';
import { formatHexWords, wordsToBytes } from '../../isa/hexWords.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';

const usage = `usage: rtgpu asm [FILE] [-o OUT] [--format hex|bin]

Assembles FILE (default: standard input); the syntax is in docs/isa.md. Errors are printed as
'file:line:col: error: message' (up to 20) and the exit status is 1; so is a program longer than the
instruction memory (${MEMORY_MAP.instructionWords} words), at the line of its first word past it. Nothing is written on an error.

  -o OUT        write the words to OUT (default: hex to standard output)
  --format F    hex: one word per line as 8 lowercase hex digits (default);
                bin: raw 32-bit little-endian words (needs -o)`;

// File helpers shared with `rtgpu disasm`.

export type WordFormat = 'hex' | 'bin';

export function checkFormat(value: string | undefined): WordFormat {
  if (value === undefined || value === 'hex' || value === 'bin') return value ?? 'hex';
  throw new CliError(`unknown format '${value}' (choose from hex, bin)`);
}

/** FILE, or standard input when none is given. */
export function readInput(file: string | undefined): Buffer {
  try {
    return readFileSync(file ?? 0);
  } catch (e) {
    throw new CliError(`cannot read ${file ?? 'standard input'}: ${(e as Error).message}`, 1);
  }
}

export function refuseToOverwrite(input: string, output: string): void {
  if (sameFile(input, output)) throw new CliError(`refusing to overwrite the input file ${input} with the output`);
}

export function writeOutput(file: string, data: string | Uint8Array): void {
  try {
    writeFileSync(file, data);
  } catch (e) {
    throw new CliError(`cannot write ${file}: ${(e as Error).message}`, 1);
  }
}

const options = { output: { type: 'string', short: 'o' }, format: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

/** The files of `rtgpu asm` and `rtgpu disasm`. */
export interface WordsPlan {
  /** Undefined: standard input. */
  readonly input?: string;
  /** Undefined: standard output. */
  readonly output?: string;
  readonly format: WordFormat;
}

export function parseAsmArgs(argv: string[]): WordsPlan | HelpPlan {
  const { values, positionals } = parseFlags(argv, options, usage);
  if (values.help) return HELP;
  if (positionals.length > 1) throw new CliError(`expected at most one input file\n\n${usage}`);
  const format = checkFormat(values.format);
  if (format === 'bin' && values.output === undefined) throw new CliError('--format bin writes raw bytes: give an output file with -o');
  return { input: positionals[0], output: values.output, format };
}

async function execute({ input, output: out, format }: WordsPlan): Promise<number> {
  if (out !== undefined && input !== undefined) refuseToOverwrite(input, out);
  const source = readInput(input).toString('utf8');
  let words: Uint32Array;
  try {
    words = checkFitsInstructionMemory(assemble(source, input ?? '<stdin>')).words;
  } catch (e) {
    if (e instanceof AsmError) throw new CliError(e.message, 1);
    throw e;
  }
  if (out === undefined) process.stdout.write(formatHexWords(words));
  else writeOutput(out, format === 'hex' ? formatHexWords(words) : wordsToBytes(words));
  return 0;
}

export const asmCommand = defineCommand({ summary: 'assemble RT core assembly to hex (or raw binary) words', usage, options, parse: parseAsmArgs, execute });
