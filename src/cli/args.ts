// Strict flag parsing for subcommands on top of node:util parseArgs, with errors that name the bad flag.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cliError.ts';

export type Options = NonNullable<ParseArgsConfig['options']>;

type ParsedFlags<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>>;

export function parseFlags<O extends Options>(argv: string[], options: O, usage: string): ParsedFlags<O> {
  // Every flag that takes a value takes a negative one too, so `--width -3` gets its range error.
  const valued = Object.keys(options).filter((name) => options[name]!.type === 'string');
  let parsed: ParsedFlags<O>;
  try {
    parsed = parseArgs({ args: joinNegativeValues(argv, valued), options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new CliError(`${wholeCharacters((e as Error).message.replace(/\. To specify.*$/s, ''), argv)}\n\n${usage}`);
  }
  checkNotEmpty(parsed.values as Record<string, unknown>, parsed.positionals);
  return parsed;
}

/** parseArgs reads a group of short options by UTF-16 unit: `-😀` would be named by half a character. */
function wholeCharacters(message: string, argv: readonly string[]): string {
  return message.replace(/'-([\uD800-\uDBFF])'/g, (m, high: string) => {
    const char = new RegExp(`${high}[\\uDC00-\\uDFFF]`).exec(argv.join(' '))?.[0];
    return char === undefined ? m : `'-${char}'`;
  });
}

/**
 * No flag takes '' and no argument is '': an empty word is an unset shell variable (`--out "$OUT"`), which
 * would otherwise be a file named '' (`: not a scene file`), or fail only when the output is written.
 */
function checkNotEmpty(values: Record<string, unknown>, positionals: readonly string[]): void {
  const flag = Object.keys(values).find((k) => values[k] === '' || (Array.isArray(values[k]) && values[k].includes('')));
  if (flag !== undefined) throw new CliError(`--${flag} expects a value, got ''`);
  if (positionals.includes('')) throw new CliError("an argument is empty ('')");
}

/** An integer flag value in min .. max, or a CliError naming the flag (a negative number gets the range error). */
export function intFlag(name: string, value: string | undefined, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!/^[+-]?\d+$/.test(value)) throw new CliError(`--${name} expects a whole number, got '${value}'`);
  const n = Number(value);
  // The number as typed: a long one would print as 1e+25 or Infinity.
  if (n < min || n > max) throw new CliError(`--${name} must be between ${min} and ${max}, got ${value}`);
  return n;
}

/**
 * `--flag -1,2,3` as `--flag=-1,2,3` for the named flags, so negative numbers need no `=`
 * (parseArgs would take the value for an option).
 */
export function joinNegativeValues(argv: readonly string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (next !== undefined && /^-[\d.]/.test(next) && names.some((n) => arg === `--${n}`)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}
