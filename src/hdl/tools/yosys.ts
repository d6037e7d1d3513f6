// Runs a Yosys script in a directory: native `yosys` from PATH, else @yowasp/yosys from npm; the log is streamed for progress.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { MissingToolError, toolVersion } from './toolchain.ts';
import { YOWASP_YOSYS_VERSION, yowaspYosys } from './yowasp.ts';

export interface YosysCommand {
  readonly file: string;
  readonly args: readonly string[];
  /** `native` (from PATH) or `yowasp` (the WebAssembly build from npm). */
  readonly kind: 'native' | 'yowasp';
}

/** Yosys is neither on PATH nor installable from npm. */
export class YosysUnavailableError extends MissingToolError {
  constructor(reason: string) {
    super('yosys');
    this.message = `yosys not found on PATH, and the WebAssembly build could not be used instead: ${reason}. Install Yosys: 'bash scripts/install-tools.sh' (Debian: apt-get install yosys)`;
    this.name = 'YosysUnavailableError';
  }
}

/** Yosys ran and failed: the message holds its error lines and the end of its log. */
export class YosysError extends Error {
  constructor(
    message: string,
    readonly logTail: string,
  ) {
    super(`${message}\n--- end of the Yosys log ---\n${logTail}`);
    this.name = 'YosysError';
  }
}

let located: Promise<YosysCommand> | undefined;

/**
 * The Yosys to run. RTGPU_YOSYS=yowasp forces the WebAssembly build (to compare, or when the
 * native one is broken).
 */
export function locateYosys(): Promise<YosysCommand> {
  located ??= (async (): Promise<YosysCommand> => {
    if (process.env.RTGPU_YOSYS !== 'yowasp') {
      try {
        await toolVersion('yosys');
        // Yosys block-buffers its log on a pipe: line buffering keeps the progress current.
        const stdbuf = await execa('stdbuf', ['--version'], { reject: false });
        return stdbuf.exitCode === 0 ? { file: 'stdbuf', args: ['-oL', 'yosys'], kind: 'native' } : { file: 'yosys', args: [], kind: 'native' };
      } catch (e) {
        if (!(e instanceof MissingToolError)) throw e;
      }
    }
    try {
      return { ...(await yowaspYosys()), kind: 'yowasp' };
    } catch (e) {
      located = undefined;
      throw new YosysUnavailableError((e as Error).message);
    }
  })();
  return located;
}

/** Which Yosys runs, for reports and cache keys: `Yosys 0.23 (git sha1 …)` or `@yowasp/yosys 0.55.944`. */
export async function yosysIdentity(): Promise<string> {
  const cmd = await locateYosys();
  return cmd.kind === 'native' ? toolVersion('yosys') : `@yowasp/yosys ${YOWASP_YOSYS_VERSION}`;
}

export interface YosysProgress {
  /** The pass running now, with the synthesis command it belongs to: `SYNTH_XILINX › ABC9`. */
  readonly pass: string;
  readonly elapsedMs: number;
}

export interface YosysRunOptions {
  /** Working directory: the sources are there, outputs (`tee -o`) land there, and the full log as `yosys.log`. */
  readonly cwd: string;
  /** Print only warnings and errors (`-q`): then `output` is everything Yosys printed. */
  readonly quiet?: boolean;
  /** Called for every pass Yosys starts. */
  readonly onProgress?: (p: YosysProgress) => void;
  /** Stop Yosys after this long (a YosysError says so). */
  readonly timeoutMs?: number;
}

export interface YosysRunResult {
  /** Everything printed when quiet, else the last lines of the log. */
  readonly output: string;
  readonly elapsedMs: number;
  readonly kind: YosysCommand['kind'];
}

const TAIL_LINES = 40;
/** `12.3. Executing ABC9 pass (...).` */
const passLine = /^(\d+(?:\.\d+)*)\. Executing (\S+)/;

/** Runs `script` (written to the working directory as `script.ys`); throws YosysError when Yosys fails. */
export async function runYosys(script: string, opts: YosysRunOptions): Promise<YosysRunResult> {
  const cmd = await locateYosys();
  writeFileSync(join(opts.cwd, 'script.ys'), script);
  const start = performance.now();
  const child = execa(cmd.file, [...cmd.args, ...(opts.quiet ? ['-q'] : []), '-l', 'yosys.log', '-s', 'script.ys'], {
    cwd: opts.cwd,
    all: true,
    buffer: false,
    reject: false,
    stdin: 'ignore',
    ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
  });
  const lines: string[] = [];
  const stack: string[] = [];
  for await (const line of child.iterable({ from: 'all' })) {
    lines.push(line);
    if (!opts.quiet && lines.length > 4 * TAIL_LINES) lines.splice(0, lines.length - TAIL_LINES);
    const m = passLine.exec(line);
    if (m && opts.onProgress) {
      const depth = m[1]!.split('.').length;
      stack.length = depth - 1;
      stack.push(m[2]!);
      opts.onProgress({ pass: stack.length > 1 ? `${stack[0]} › ${stack.at(-1)}` : stack[0]!, elapsedMs: performance.now() - start });
    }
  }
  const r = await child;
  const elapsedMs = performance.now() - start;
  const output = (opts.quiet ? lines : lines.slice(-TAIL_LINES)).join('\n');
  if (r.exitCode !== 0 || r.signal) {
    // Yosys exits on an error without flushing stdout: its log file has everything.
    const logFile = join(opts.cwd, 'yosys.log');
    if (existsSync(logFile)) lines.splice(0, lines.length, ...readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-TAIL_LINES));
    const errors = [...new Set(lines.filter((l) => /^ERROR:/.test(l)))];
    const what = r.timedOut ? `yosys did not finish within ${Math.round(opts.timeoutMs! / 1000)} s` : r.signal ? `yosys was stopped by ${r.signal}${r.signal === 'SIGKILL' ? ' (out of memory?)' : ''}` : `yosys failed (exit ${r.exitCode})`;
    throw new YosysError(`${what}${errors.length ? `: ${errors.join('; ')}` : ''}`, lines.slice(-TAIL_LINES).join('\n'));
  }
  return { output, elapsedMs, kind: cmd.kind };
}
