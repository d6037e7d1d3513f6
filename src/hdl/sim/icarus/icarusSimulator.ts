// The live Icarus back end: vvp runs the design in a child process with our VPI module, which takes
// batched commands over a pipe; the simulation waits for Node between commands, so it reacts cycle by cycle.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { Design } from '../../ir/netlist.ts';
import { cachedBuild, contentHash } from '../../tools/buildCache.ts';
import { toolVersion } from '../../tools/toolchain.ts';
import { externalDesign, type ExternalDesign } from '../external/externalDesign.ts';
import { ExternalSimulator, type Engine } from '../external/externalSimulator.ts';
import { annotateToolOutput } from '../external/toolErrors.ts';
import { engineReportsError, type EngineReport } from '../external/engineReports.ts';
import { PropertyFailedError } from '../propertyCheck.ts';
import { wordsOf } from '../signals.ts';
import { blockingPipe, closeQuietly, readExactly, waitReadable, writeAll } from './blockingPipe.ts';

export interface IcarusOptions {
  readonly backend: 'icarus';
  /** Make every register readable by hierarchical name (as with Verilator; Icarus itself sees everything). */
  readonly registers?: boolean;
  /** The reset check: registers with a reset power on at seeded values, as on the TS simulator (CompiledSimulatorOptions.resetCheckSeed). */
  readonly resetCheckSeed?: number;
  /**
   * Longest wait for one answer from vvp before it is stopped and an error raised, so a vvp stuck in a
   * zero-delay loop is an error, not a hang. Default: 5 min plus 50 ms per cycle the command simulates
   * (a step of a million cycles may take that long). `Infinity`: no limit.
   */
  readonly timeoutSeconds?: number;
  readonly log?: (line: string) => void;
}

const testbenchTemplate = fileURLToPath(new URL('../../../../testbench/icarus_live_tb.sv', import.meta.url));
const vpiSource = fileURLToPath(new URL('../../../../testbench/icarus_live_vpi.c', import.meta.url));
const TB = 'rtgpu_live_tb';
const PROTOCOL_VERSION = 4;

const OP = { BIND: 1, POKE: 2, PEEK: 3, STEP: 4, VECTORS: 5, MEM_WRITE: 6, MEM_READ: 7, DUMP_START: 8, DUMP_OFF: 9, DUMP_ON: 10, FINISH: 11, SYNC: 12, CLOCKS: 13, DUMP_FLUSH: 14 } as const;
const REPLY = { OK: 0, ERROR: 1, HELLO: 2, REPORTS: 3 } as const;

const range = (w: number) => (w === 1 ? '' : `[${w - 1}:0] `);

/**
 * Pulse each asynchronous reset input high and low, then wait for the registers' nonblocking updates
 * (the reset values) before the first command: a peek in the same time step would see them still X.
 */
function powerOnResets(inputs: readonly string[]): string {
  if (!inputs.length) return '';
  const pulses = inputs.map((n) => `    p_${n} = 1'b1;\n    #0 p_${n} = 1'b0;\n    #0;`);
  return [...pulses, `    #0 rtgpu_power_on_done <= 1'b1;`, '    @(rtgpu_power_on_done);'].join('\n');
}

/**
 * The testbench's variable driving a clock input: the clock's own name (`clk` as before), unless it
 * could clash with the testbench's names.
 */
export function clockVariable(name: string): string {
  return ['op', 'count', 'dut'].includes(name) || name.startsWith('p_') || name.startsWith('rtgpu_') ? `rtgpu_clock_${name}` : name;
}

export function liveTestbenchSource(x: ExternalDesign): string {
  const ports = x.signals.filter((s) => s.isPort);
  const decls = ports.map((s) => (s.net.kind === 'input' ? `  logic ${range(s.net.width)}p_${s.sv.path[0]} = '0;` : `  wire ${range(s.net.width)}p_${s.sv.path[0]};`));
  // A design without clock keeps a `clk` that nothing reads (steps only let time pass).
  const clockVars = x.clocks.length ? x.clocks.map(clockVariable) : ['clk'];
  const conns = [...x.clocks.map((c) => `.${c}(${clockVariable(c)})`), ...ports.map((s) => `.${s.sv.path[0]}(p_${s.sv.path[0]})`)];
  const first = clockVars[0]!;
  const firstFalls = x.clocks.length > 0 && x.edges.some((e) => e.clock === x.clocks[0] && e.edge === 'falling');
  const fields: Record<string, string> = {
    // Several clocks run in real time: a ps is one unit.
    TIMEUNIT: x.clocks.length > 1 ? '  timeunit 1ps;\n  timeprecision 1ps;' : '',
    CLOCK_DECLS: clockVars.map((c) => `  logic ${c} = 1'b0;`).join('\n'),
    DECLS: decls.join('\n'),
    POWER_ON_RESETS: powerOnResets(x.asyncResetInputs),
    TOP: x.design.top,
    CONNS: conns.map((c, i) => `    ${c}${i < conns.length - 1 ? ',' : ''}`).join('\n'),
    CLOCK_HIGH: `${first} = 1'b1;`,
    CLOCK_LOW: `${first} = 1'b0;`,
    // Registers on the falling edge update at the end of the last cycle: past them before Node reads.
    // Timed, the testbench's own variables would add a change after every instant: the design only.
    DUMPVARS: x.clocks.length > 1 ? '$dumpvars(0, rtgpu_live_tb.dut);' : '$dumpvars(0, rtgpu_live_tb);',
    STEP_FALL_SETTLE: firstFalls ? '          rtgpu_settle;' : '',
  };
  return readFileSync(testbenchTemplate, 'utf8')
    .replace(/^\{\{([A-Z_]+)\}\}\n/gm, (whole, key: string) => (fields[key] === '' ? '' : whole))
    .replace(/\{\{([A-Z_]+)\}\}/g, (whole, key: string) => {
      const v = fields[key];
      if (v === undefined) throw new Error(`internal: icarus_live_tb.sv has an unknown placeholder ${whole}`);
      return v;
    });
}

/** The VPI module, built once per Icarus version. */
async function buildVpiModule(version: string): Promise<string> {
  await toolVersion('iverilog-vpi');
  const source = readFileSync(vpiSource, 'utf8');
  const { dir } = await cachedBuild('icarus-vpi', contentHash([version, source]), async (tmp) => {
    writeFileSync(join(tmp, 'rtgpu_live.c'), source);
    const r = await execa('iverilog-vpi', ['rtgpu_live.c'], { cwd: tmp, reject: false, all: true });
    if (r.exitCode !== 0 || !existsSync(join(tmp, 'rtgpu_live.vpi'))) throw new Error(`iverilog-vpi could not build the rtgpu VPI module:\n${(r.all ?? '').slice(-4000)}`);
  });
  return dir;
}

/** Compiles the design and its live testbench with iverilog (cached); returns the build directory. */
export async function buildIcarusDesign(x: ExternalDesign, log: (line: string) => void): Promise<{ dir: string; vpiDir: string }> {
  const version = `${await toolVersion('iverilog')} / ${await toolVersion('vvp')}`;
  const vpiDir = await buildVpiModule(version);
  const tb = liveTestbenchSource(x);
  const key = contentHash([version, tb, ...x.emitted.files.flatMap((f) => [f.path, f.text])]);
  const { dir, cached } = await cachedBuild('icarus-live', key, async (tmp) => {
    log(`icarus: compiling ${x.design.top} (${x.emitted.files.length} files)`);
    for (const f of x.emitted.files) writeFileSync(join(tmp, f.path), f.text);
    writeFileSync(join(tmp, `${TB}.sv`), tb);
    const r = await execa('iverilog', ['-g2012', '-o', 'sim.vvp', '-s', TB, `${TB}.sv`, ...x.emitted.fileList], { cwd: tmp, reject: false, all: true });
    if (r.exitCode !== 0) throw new Error(`iverilog could not compile ${x.design.top}:\n${annotateToolOutput(r.all ?? '', x)}`);
  });
  if (cached) log(`icarus: ${x.design.top} from the build cache`);
  return { dir, vpiDir };
}

/** The names the VPI module binds, in the engine's signal order, then the memories. */
function bindNames(x: ExternalDesign): { kind: 0 | 1; name: string; width: number; depth: number }[] {
  return [
    ...x.signals.map((s) => ({ kind: 0 as const, name: s.isPort ? `${TB}.p_${s.sv.path[0]}` : [TB, 'dut', ...s.sv.path].join('.'), width: s.net.width, depth: 0 })),
    ...x.memories.map((m) => ({ kind: 1 as const, name: [TB, 'dut', ...m.sv.path].join('.'), width: m.memory.width, depth: m.memory.depth })),
    ...x.clocks.map((c) => ({ kind: 0 as const, name: `${TB}.${clockVariable(c)}`, width: 1, depth: 0 })),
  ];
}

function stringWords(s: string): number[] {
  const bytes = Buffer.from(s, 'utf8');
  const words = new Uint32Array(1 + Math.ceil(bytes.length / 4));
  words[0] = bytes.length;
  Buffer.from(words.buffer).set(bytes, 4);
  return [...words];
}

/** Reads until end of file (the writer exited) or `timeoutMs` passes. */
function drain(fd: number, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  const buf = Buffer.alloc(4096);
  while (Date.now() < deadline && waitReadable(fd, Math.max(1, deadline - Date.now()))) {
    if (readSync(fd, buf, 0, buf.length, null) === 0) return;
  }
}

/** One vvp process running the live testbench. */
export class IcarusEngine implements Engine {
  private child!: ChildProcess;
  private cmd = -1;
  private reply = -1;
  private work = '';
  private pending: number[] = [];
  /** Commands whose empty answer is read later (the instants of `clocks`): they go with the next request, in one write. */
  private deferred = 0;
  private failure: string | undefined;
  /** The failed property (or other $error) that stopped the run, once raised. */
  private stoppedBy: Error | undefined;
  private dumping = false;

  constructor(
    private readonly x: ExternalDesign,
    private readonly build: { dir: string; vpiDir: string },
    private readonly limit: AnswerLimit,
  ) {
    this.start();
  }

  /** The vvp process (a new one after each powerOn). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  private start(): void {
    this.work = mkdtempSync(join(tmpdir(), 'rtgpu-icarus-'));
    const log = openSync(join(this.work, 'vvp.log'), 'w');
    const cmd = blockingPipe();
    const reply = blockingPipe();
    // vvp -n: $stop ends the run instead of waiting for a command on stdin. Run where the memory images are.
    this.child = spawn('vvp', ['-n', '-M', this.build.vpiDir, '-m', 'rtgpu_live', join(this.build.dir, 'sim.vvp')], {
      cwd: this.build.dir,
      stdio: ['ignore', log, log, cmd.read, reply.write],
    });
    this.child.on('error', () => {}); // a failed start shows as end of file on the reply pipe
    this.child.unref();
    closeQuietly(log);
    closeQuietly(cmd.read);
    closeQuietly(reply.write);
    this.cmd = cmd.write;
    this.reply = reply.read;
    this.failure = undefined;
    this.stoppedBy = undefined;
    const hello = this.receive(REPLY.HELLO);
    if (hello[0] !== PROTOCOL_VERSION) this.fail(`the VPI module speaks protocol ${hello[0]}, expected ${PROTOCOL_VERSION}`);
    const names = bindNames(this.x);
    const payload = [names.length, ...names.flatMap((n) => [n.kind, ...stringWords(n.name)])];
    const sizes = this.request(OP.BIND, payload);
    names.forEach((n, i) => {
      const [width, depth] = [sizes[2 * i]!, sizes[2 * i + 1]!];
      if (width !== n.width || depth !== n.depth) this.fail(`the testbench has no ${n.kind ? 'memory' : 'signal'} ${n.name} of ${n.width} bits${n.kind ? ` x ${n.depth}` : ''} (vvp found ${width} bits${n.kind ? ` x ${depth}` : ''})`);
    });
  }

  private logTail(): string {
    try {
      const text = readFileSync(join(this.work, 'vvp.log'), 'utf8').trim();
      return text ? `\nvvp said:\n${text.slice(-3000)}` : '';
    } catch {
      return '';
    }
  }

  private fail(why: string): never {
    this.failure ??= `icarus: ${this.x.design.top}: ${why}`;
    this.stopProcess();
    throw new Error(`${this.failure}\n(powerOn() starts it again)`);
  }

  private send(words: readonly number[]): void {
    this.pending.push(...words);
  }

  private flush(): void {
    if (this.failure) throw new Error(`${this.failure}\n(powerOn() starts it again)`);
    if (this.stoppedBy) throw this.stopped();
    if (!this.pending.length) return;
    const data = new Uint8Array(Uint32Array.from(this.pending).buffer);
    this.pending = [];
    if (!writeAll(this.cmd, data)) this.fail(`vvp exited before it took the command${this.logTail()}`);
  }

  /** Reads the answers of deferred commands, then one answer; `cycles` is how many cycles the command simulates (they lengthen the default limit). */
  private receive(expect: number, cycles = 0): Uint32Array {
    for (; this.deferred > 0; this.deferred--) this.receiveOne(REPLY.OK);
    return this.receiveOne(expect, cycles);
  }

  private receiveOne(expect: number, cycles = 0): Uint32Array {
    const timeoutMs = answerTimeoutMs(this.limit, cycles);
    const timeout = () => this.fail(`vvp did not answer within ${timeoutMs / 1000} s (timeoutSeconds)${this.logTail()}`);
    const head = readExactly(this.reply, 8, timeoutMs, timeout);
    if (!head) this.fail(`vvp exited unexpectedly${this.logTail() || ' (no output)'}`);
    const code = head.readUInt32LE(0);
    const n = head.readUInt32LE(4);
    const body = n ? readExactly(this.reply, 4 * n, timeoutMs, timeout) : Buffer.alloc(0);
    if (!body) this.fail(`vvp exited in the middle of an answer${this.logTail()}`);
    const words = new Uint32Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
    if (code === REPLY.REPORTS) throw this.stopped(words);
    if (code === REPLY.ERROR) {
      const msg = body.toString('utf8', 4, 4 + words[0]!);
      // Third-party RTL often leaves data X on purpose: say how lockstep is told so.
      const hint = /is X or Z/.test(msg) ? " (if that value does not matter then, tell lockstep: its dontCare and fromFirstReset options, --dont-care and --from-first-reset of rtgpu cosim, docs/hdl-guide.md 'X and don't-care values')" : '';
      throw new Error(`icarus: ${this.x.design.top}: ${msg}${hint}`);
    }
    if (code !== expect) this.fail(`unexpected answer ${code} from the VPI module`);
    return words;
  }

  /**
   * The error of the $error that stopped the run (`reports`: its answer): raised once, then every call
   * says the run stopped (the answers still in the pipe are never read).
   */
  private stopped(reports?: Uint32Array): Error {
    if (!this.stoppedBy && reports) return (this.stoppedBy = engineReportsError(this.x, 'icarus', decodeReports(reports)));
    const by = this.stoppedBy;
    return new Error(`icarus: ${this.x.design.top} stopped at cycle ${by instanceof PropertyFailedError ? `${by.cycle}: ${by.property} failed` : 'a $error'}; powerOn() starts it again`);
  }

  private request(op: number, payload: readonly number[], cycles = 0): Uint32Array {
    this.send([op, payload.length, ...payload]);
    this.flush();
    return this.receive(REPLY.OK, cycles);
  }

  poke(signal: number, words: Uint32Array): void {
    this.send([OP.POKE, 1 + words.length, signal, ...words]);
  }

  peek(signal: number, into: Uint32Array): void {
    into.set(this.request(OP.PEEK, [signal]).subarray(0, into.length));
  }

  step(cycles: number): void {
    if (cycles > 0) this.request(OP.STEP, [cycles], cycles);
  }

  /**
   * An instant. Its answer is read with the next request's (a run of instants costs no round trip each),
   * at most MAX_DEFERRED later: vvp must never block on a full reply pipe while Node writes commands.
   */
  clocks(mask: number, levels: number, time: number, timed: boolean): void {
    const target = Math.max(0, Math.round(time));
    this.send([OP.CLOCKS, 6, this.x.signals.length + this.x.memories.length, mask, levels, target % 2 ** 32, Math.floor(target / 2 ** 32), timed ? 1 : 0]);
    if (++this.deferred >= MAX_DEFERRED) this.request(OP.SYNC, []);
  }

  /** Several peeks in one round trip. */
  peekMany(signals: readonly number[], into: readonly Uint32Array[]): void {
    for (const s of signals) this.send([OP.PEEK, 1, s]);
    this.flush();
    signals.forEach((_, i) => into[i]!.set(this.receive(REPLY.OK).subarray(0, into[i]!.length)));
  }

  traceFlush(): void {
    if (this.dumping) this.request(OP.DUMP_FLUSH, []);
  }

  sync(): void {
    if (this.deferred > 0 || this.pending.length) this.request(OP.SYNC, []);
  }

  runVectors(ins: Int32Array, outs: Int32Array, stimulus: Uint32Array, cycles: number, outWords: number): Uint32Array {
    const head = [cycles, ins.length, ...ins, outs.length, ...outs];
    this.send([OP.VECTORS, head.length + stimulus.length, ...head]);
    // The rows go straight from the caller's buffer: a long run is megabytes.
    this.flush();
    if (!writeAll(this.cmd, new Uint8Array(stimulus.buffer, stimulus.byteOffset, stimulus.byteLength))) this.fail(`vvp exited before it took the vectors${this.logTail()}`);
    const out = this.receive(REPLY.OK, cycles);
    if (out.length !== outWords * cycles) this.fail(`the vector run returned ${out.length} words, expected ${outWords * cycles}`);
    return out;
  }

  memoryWrite(memory: number, addr: number, count: number, words: Uint32Array): void {
    this.send([OP.MEM_WRITE, 3 + words.length, this.x.signals.length + memory, addr, count]);
    this.flush();
    if (!writeAll(this.cmd, new Uint8Array(words.buffer, words.byteOffset, words.byteLength))) this.fail(`vvp exited before it took the memory contents${this.logTail()}`);
  }

  memoryRead(memory: number, addr: number, count: number): Uint32Array {
    const out = this.request(OP.MEM_READ, [this.x.signals.length + memory, addr, count]);
    if (out.length !== count * wordsOf(this.x.memories[memory]!.memory.width)) this.fail(`a memory read returned ${out.length} words`);
    return out;
  }

  traceStart(path: string): void {
    if (this.dumping) throw new Error(`icarus: ${this.x.design.top} already writes a waveform; Icarus writes one VCD file per run (powerOn() starts a new run)`);
    this.request(OP.DUMP_START, stringWords(path));
    this.dumping = true;
  }

  traceStop(): void {
    if (this.dumping) this.request(OP.DUMP_OFF, []);
  }

  private stopProcess(): void {
    if (this.cmd >= 0) closeQuietly(this.cmd);
    if (this.reply >= 0) closeQuietly(this.reply);
    this.cmd = this.reply = -1;
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }

  powerOn(): void {
    this.close();
    this.dumping = false;
    this.start();
  }

  close(): void {
    if (this.cmd >= 0 && !this.failure) {
      // Instants not yet sent go first (a waveform gets them), then vvp ends the run (closing the
      // waveform) and exits: the reply pipe reaches end of file.
      this.pending.push(OP.FINISH, 0);
      if (writeAll(this.cmd, new Uint8Array(Uint32Array.from(this.pending).buffer))) drain(this.reply, drainTimeoutMs(this.limit));
      this.pending = [];
    }
    if (this.cmd >= 0) closeQuietly(this.cmd);
    if (this.reply >= 0) closeQuietly(this.reply);
    this.cmd = this.reply = -1;
    this.deferred = 0;
    rmSync(this.work, { recursive: true, force: true });
  }
}

/** The reports of a REPLY_REPORTS answer (icarus_live_vpi.c): cycle, time (ps, all ones: not timed), scope, text each. */
function decodeReports(w: Uint32Array): EngineReport[] {
  const bytes = Buffer.from(w.buffer, w.byteOffset, w.byteLength);
  let at = 1;
  const word = () => w[at++]!;
  const text = () => {
    const len = word();
    const s = bytes.toString('utf8', 4 * at, 4 * at + len);
    at += Math.ceil(len / 4);
    return s;
  };
  return Array.from({ length: w[0] ?? 0 }, (): EngineReport => {
    const cycle = word() + 2 ** 32 * word();
    const [lo, hi] = [word(), word()];
    const timePs = lo === 0xffffffff && hi === 0xffffffff ? -1 : lo + 2 ** 32 * hi;
    const scope = text().split('.');
    // The scope is rtgpu_live_tb.dut.<instances>: the path below the top.
    return { cycle, timePs, scope: scope[0] === TB && scope[1] === 'dut' ? scope.slice(2) : null, text: text() };
  });
}

/** Instants sent before their answers are read (each answer is 8 bytes: far below a pipe's 64 KiB). */
const MAX_DEFERRED = 1024;

export function compileIcarusSimulator(design: Design, opts: IcarusOptions): Promise<ExternalSimulator> {
  return startIcarus(externalDesign(design, { registers: opts.registers ?? false, resetCheckSeed: opts.resetCheckSeed }), opts);
}

/** Compiles an external design (its emitted files as given) and starts vvp on it. */
export async function startIcarus(x: ExternalDesign, opts: Omit<IcarusOptions, 'backend' | 'registers'>): Promise<ExternalSimulator> {
  const build = await buildIcarusDesign(x, opts.log ?? (() => {}));
  return new ExternalSimulator('icarus', x, new IcarusEngine(x, build, answerLimit(opts.timeoutSeconds)));
}

/** How long vvp may take to answer: fixed (the user's `timeoutSeconds`), none, or the default that grows with the cycles asked for. */
export type AnswerLimit = { readonly fixedMs: number } | { readonly none: true } | { readonly baseMs: number; readonly perCycleMs: number };

const DEFAULT_ANSWER_LIMIT: AnswerLimit = { baseMs: 300_000, perCycleMs: 50 };

export function answerLimit(timeoutSeconds: number | undefined): AnswerLimit {
  if (timeoutSeconds === undefined) return DEFAULT_ANSWER_LIMIT;
  if (typeof timeoutSeconds !== 'number' || Number.isNaN(timeoutSeconds) || timeoutSeconds <= 0) throw new Error(`icarus: timeoutSeconds must be a positive number of seconds (or Infinity for no limit), got ${String(timeoutSeconds)}`);
  return timeoutSeconds === Infinity ? { none: true } : { fixedMs: Math.max(1, Math.round(timeoutSeconds * 1000)) };
}

/** How long to wait for vvp to finish after the last command: at most a minute. */
function drainTimeoutMs(limit: AnswerLimit): number {
  const t = answerTimeoutMs(limit, 0);
  return t < 0 ? 60_000 : Math.min(60_000, t);
}

/** The poll timeout for one answer, in ms (-1: wait for ever). */
export function answerTimeoutMs(limit: AnswerLimit, cycles: number): number {
  if ('none' in limit) return -1;
  if ('fixedMs' in limit) return limit.fixedMs;
  // poll() takes a 32-bit int: past about 24 days, wait for ever.
  return Math.min(limit.baseMs + limit.perCycleMs * cycles, 2 ** 31 - 1);
}
