// Runs yosys-smtbmc with the z3 solver on a design's SMT-LIB model and reads what it concluded.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { toolVersion } from '../tools/index.ts';

/** What one yosys-smtbmc run concluded. */
export interface SmtbmcRun {
  /** `Status: PASSED`: no assertion failed (bmc), induction closed (-i), every cover reached (-c). */
  readonly passed: boolean;
  /**
   * The assertions it reports failed, by description (`Leaf.sv:38.30-39.30 ($flatten/u1.$assert$Leaf.sv:38$31)`),
   * with the step where one fails in a cover trace (bmc: the trace's last step).
   */
  readonly failedAsserts: readonly { readonly description: string; readonly step?: number }[];
  /** Cover mode: each cover reached, at the step that reaches it. */
  readonly reachedCovers: readonly { readonly description: string; readonly step: number }[];
  readonly unreachedCovers: readonly string[];
  /** Its messages, without the timestamps. */
  readonly messages: readonly string[];
  /** The full output, written beside the model. */
  readonly log: string;
  readonly seconds: number;
}

/** The solver every run uses: z3, from Debian packages (scripts/install-tools.sh). */
const SOLVER = 'z3';

/** Both tools are there, or a MissingToolError names the package to install. */
export async function requireSmtbmc(): Promise<void> {
  await Promise.all([toolVersion('yosys-smtbmc'), toolVersion('z3')]);
}

/** `##   0:00:00  Assert failed in Top: …` → `Assert failed in Top: …` */
const message = (line: string): string | undefined => /^##\s+\d+:\d\d:\d\d\s+(.*)$/.exec(line)?.[1];

/**
 * Runs `yosys-smtbmc -s z3 ARGS model` in `cwd`; its output goes to `<name>.log` there. Throws when it
 * stops without a status (a solver or script error), with the end of its output.
 */
export async function runSmtbmc(model: string, args: readonly string[], o: { readonly cwd: string; readonly name: string; readonly timeoutSeconds?: number; readonly signal?: AbortSignal }): Promise<SmtbmcRun> {
  await requireSmtbmc();
  const start = performance.now();
  const r = await execa('yosys-smtbmc', ['-s', SOLVER, '--noprogress', ...args, model], {
    cwd: o.cwd,
    all: true,
    reject: false,
    stdin: 'ignore',
    ...(o.timeoutSeconds ? { timeout: o.timeoutSeconds * 1000 } : {}),
    ...(o.signal ? { cancelSignal: o.signal } : {}),
  });
  const seconds = (performance.now() - start) / 1000;
  const output = r.all ?? '';
  const log = join(o.cwd, `${o.name}.log`);
  writeFileSync(log, output);
  const messages = output.split('\n').map(message).filter((m): m is string => m !== undefined);
  const status = messages.map((m) => /^Status: (\w+)/.exec(m)?.[1]).find((s) => s !== undefined);
  if (status === undefined) {
    if (r.isCanceled) throw new Error(`yosys-smtbmc (${o.name}) was stopped`);
    const why = r.timedOut ? `did not finish within ${o.timeoutSeconds} s` : `stopped without a result (exit ${r.exitCode ?? r.signal})`;
    throw new Error(`yosys-smtbmc ${args.join(' ')} ${why}; the end of its output (${log}):\n${output.split('\n').slice(-20).join('\n')}`);
  }
  const after = (prefix: string) => messages.filter((m) => m.startsWith(prefix)).map((m) => m.slice(prefix.length));
  return {
    passed: status === 'PASSED',
    failedAsserts: after('Assert failed in ').map((m) => {
      const hit = /^[^:]*: (.*?)(?: \(step (\d+)\))?$/.exec(m)!;
      return { description: hit[1]!, ...(hit[2] === undefined ? {} : { step: Number(hit[2]) }) };
    }),
    reachedCovers: after('Reached cover statement at ').map((m) => {
      const hit = /^(.*) in step (\d+)\.$/.exec(m)!;
      return { description: hit[1]!, step: Number(hit[2]) };
    }),
    unreachedCovers: after('Unreached cover statement at ').map((m) => m.replace(/\.$/, '')),
    messages,
    log,
    seconds,
  };
}
