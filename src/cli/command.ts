// A subcommand in two parts: a pure parse of its command line into a plan, and the work the plan describes.
import type { Options } from './args.ts';

/** What a parse returns for --help: the usage is printed and nothing else is done. */
export interface HelpPlan {
  readonly help: true;
}

export const HELP: HelpPlan = { help: true };

export const isHelp = (plan: object): plan is HelpPlan => (plan as Partial<HelpPlan>).help === true;

export interface CommandParts<P extends object> {
  readonly summary: string;
  readonly usage: string;
  /** Its flags (parseFlags'), exported so that the fuzzer's dictionary holds every one of them. */
  readonly options: Options;
  /**
   * Every check of the command line that needs no file's contents: reads no file, writes none, starts no
   * tool, so that it can be fuzzed. Throws only CliError.
   */
  readonly parse: (argv: string[]) => P | HelpPlan;
  readonly execute: (plan: P) => Promise<number>;
}

export interface Command<P extends object = object> extends CommandParts<P> {
  /** parse, then execute (or print the usage). */
  run(argv: string[]): Promise<number>;
}

export function defineCommand<P extends object>(parts: CommandParts<P>): Command<P> {
  return {
    ...parts,
    async run(argv) {
      const plan = parts.parse(argv);
      if (isHelp(plan)) {
        console.log(parts.usage);
        return 0;
      }
      return parts.execute(plan);
    },
  };
}
