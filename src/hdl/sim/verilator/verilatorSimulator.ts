// The live Verilator back end: the design built into a shared library (cached by content) and loaded
// in-process through koffi; testbench calls become direct C calls, `step(n)` and `runVectors` loop in C.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import koffi from 'koffi';
import type { Design } from '../../ir/netlist.ts';
import { cacheRoot, cachedBuild, contentHash } from '../../tools/buildCache.ts';
import { toolVersion } from '../../tools/toolchain.ts';
import { keepOnlyBuildProduct, verilatorBuild, verilatorCxxOptimization, verilatorMakeVariables } from '../../tools/verilatorCompile.ts';
import { VERILATOR_MISCOMPILE_FLAGS } from '../../tools/verilatorMiscompiles.ts';
import { externalDesign, type ExternalDesign } from '../external/externalDesign.ts';
import { ExternalSimulator, type Engine } from '../external/externalSimulator.ts';
import { annotateToolOutput } from '../external/toolErrors.ts';
import { hierarchicalBlocks, hierarchicalBlocksConfig, hierarchicalPays } from './hierarchicalBlocks.ts';
import { engineReportsError, type EngineReport } from '../external/engineReports.ts';
import { PropertyFailedError } from '../propertyCheck.ts';
import { wordsOf } from '../signals.ts';
import { modelSource, publicSignalsConfig } from './modelSource.ts';

export interface VerilatorOptions {
  readonly backend: 'verilator';
  /** Build with waveform support, so that `traceVcd` works (Verilator's tracing slows every cycle a little). */
  readonly trace?: boolean;
  /** Make every register readable by hierarchical name (`peek('fifo.count')`, register comparison in lockstep). */
  readonly registers?: boolean;
  /** The reset check: registers with a reset power on at seeded values, as on the TS simulator (CompiledSimulatorOptions.resetCheckSeed). */
  readonly resetCheckSeed?: number;
  /**
   * Verilate each module placed 4 times or more once, as a hierarchical block, instead of once per instance
   * (docs/hdl-guide.md, "Simulators"): rtgpu_top at -O2 builds in a third to a quarter of the time and runs
   * about half as fast. Not with `trace` or `registers` (Node reaches nothing inside a block). `'auto'`:
   * hierarchical where that pays (`hierarchicalPays`: the C++ optimized), as the CLI does. Default false.
   */
  readonly hierarchical?: boolean | 'auto';
  /** Progress lines (a large design takes minutes to build the first time). */
  readonly log?: (line: string) => void;
}

/** How a model is built: the options of VerilatorOptions that change the library. */
export type VerilatorBuild = Pick<VerilatorOptions, 'trace' | 'hierarchical'>;

/** Every flag is part of the build cache key. The VL_USER_* defines route $finish/$stop/$fatal/$error to our handlers. */
export const verilatorModelFlags = (): string[] => [
  '--cc',
  '--exe',
  '-O3',
  ...VERILATOR_MISCOMPILE_FLAGS,
  '--x-assign',
  '0',
  '--x-initial',
  '0',
  // A lint warning (a comparison Verilator proves constant, say) must not stop a simulation: it is
  // passed to the log; 'rtgpu lint' (verilator --lint-only -Wall) is where warnings fail.
  '-Wno-fatal',
  '-CFLAGS',
  `${verilatorCxxOptimization()} -fPIC -fvisibility=hidden -DVL_USER_FINISH -DVL_USER_STOP -DVL_USER_FATAL -DVL_USER_STOP_MAYBE -DVL_PRINTF=rtgpu_vl_printf`,
  '-LDFLAGS',
  '-shared -Wl,-Bsymbolic',
];

/**
 * Every translation unit must see the declarations of our hooks: the function VL_PRINTF now names, and
 * vl_stop_maybe, which Verilator's runtime calls (VL_USER_STOP_MAYBE leaves its definition to us): the
 * model's files through the precompiled header, Verilator's runtime on its compile line (relative to
 * obj/, where make compiles: the same line in every build, so that ccache finds the runtime it compiled).
 */
const HOOKS_HEADER = { path: 'rtgpu_hooks.h', text: 'void rtgpu_vl_printf(const char* format, ...);\nvoid vl_stop_maybe(const char* filename, int linenum, const char* hier, bool maybe);\n' };
const hookDeclarations = { prelude: [`#include "../${HOOKS_HEADER.path}"`], runtimeFlags: `-include ../${HOOKS_HEADER.path}` };

const LIBRARY = 'librtgpu_model.so';
const HIER_CONFIG = 'rtgpu_hier.vlt';
const LINT_WARNINGS = 'lint-warnings.txt';
const ABI_VERSION = 3;

/** `$readmemh("X.hex")` resolves against the process's working directory: point it at the build's copy. */
function absoluteMemoryImages(text: string, dir: string): string {
  return text.replaceAll('$readmemh("', `$readmemh(${JSON.stringify(dir + '/').slice(0, -1)}`);
}

/** Builds (or finds in the cache) the shared library of a design; returns its path. */
export async function buildVerilatorModel(x: ExternalDesign, build: VerilatorBuild, log: (line: string) => void = () => {}): Promise<string> {
  const trace = build.trace ?? false;
  // In this order, so that a machine without any of them hears about Verilator first.
  const version = await toolVersion('verilator');
  await toolVersion('make');
  await toolVersion('g++');
  const cpp = modelSource(x, trace);
  const vlt = publicSignalsConfig(x);
  const hierarchical = build.hierarchical === 'auto' ? hierarchicalPays() : (build.hierarchical ?? false);
  const blocks = hierarchical && !trace ? hierarchicalBlocks(x) : [];
  const hier = blocks.length ? hierarchicalBlocksConfig(blocks) : '';
  const flags = [...verilatorModelFlags(), ...(trace ? ['--trace'] : []), ...(blocks.length ? ['--hierarchical'] : [])];
  const make = verilatorMakeVariables(hookDeclarations.runtimeFlags);
  const key = contentHash([version, String(ABI_VERSION), cacheRoot(), ...flags, ...make, ...hookDeclarations.prelude, HOOKS_HEADER.text, cpp, vlt, hier, ...x.emitted.files.flatMap((f) => [f.path, f.text])]);
  const { dir, cached } = await cachedBuild('verilator-model', key, async (tmp, finalDir) => {
    log(`verilator: building ${x.design.top} (${x.emitted.files.length} files${trace ? ', with tracing' : ''}${blocks.length ? `; hierarchical blocks: ${blocks.join(', ')}` : ''})`);
    for (const f of x.emitted.files) writeFileSync(join(tmp, f.path), f.path.endsWith('.sv') ? absoluteMemoryImages(f.text, finalDir) : f.text);
    writeFileSync(join(tmp, 'rtgpu_model.cpp'), cpp);
    writeFileSync(join(tmp, 'rtgpu_public.vlt'), vlt);
    if (hier) writeFileSync(join(tmp, HIER_CONFIG), hier);
    writeFileSync(join(tmp, HOOKS_HEADER.path), HOOKS_HEADER.text);
    // The black boxes' lint waivers (a .vlt among the emitted files) go before the sources they waive.
    const waivers = x.emitted.lintWaivers.verilatorConfig;
    const r = await verilatorBuild({ cwd: tmp, args: [...flags, '--top-module', x.design.top, '-o', LIBRARY, 'rtgpu_public.vlt', ...(hier ? [HIER_CONFIG] : []), ...(waivers ? [waivers] : []), 'rtgpu_model.cpp', ...x.emitted.fileList], ...hookDeclarations });
    if (!r.ok) throw new Error(`verilator could not build ${x.design.top}:\n${annotateToolOutput(r.output, x)}`);
    keepOnlyBuildProduct(tmp, LIBRARY);
    // Kept with the build, so that a build from the cache reports them too.
    const warnings = r.output.split('\n').filter((l) => l.startsWith('%Warning'));
    if (warnings.length) writeFileSync(join(tmp, LINT_WARNINGS), annotateToolOutput(warnings.join('\n'), x));
  });
  if (cached) log(`verilator: ${x.design.top} from the build cache${blocks.length ? ` (hierarchical blocks: ${blocks.join(', ')})` : ''}`);
  if (existsSync(join(dir, LINT_WARNINGS))) {
    const text = readFileSync(join(dir, LINT_WARNINGS), 'utf8');
    log(`verilator: ${x.design.top} built with ${text.split('\n').filter((l) => l.startsWith('%Warning')).length} lint warning(s) ('rtgpu lint' reports them as errors):\n${text}`);
  }
  return join(dir, 'obj', LIBRARY);
}

interface ModelLibrary {
  readonly abi: () => number;
  readonly create: (err: Buffer, len: number) => unknown;
  readonly destroy: (m: unknown) => void;
  readonly error: (m: unknown, buf: Buffer, len: number) => number;
  readonly reports: (m: unknown, buf: Buffer, len: number) => number;
  readonly poke: (m: unknown, signal: number, words: Uint32Array) => void;
  readonly peek: (m: unknown, signal: number, words: Uint32Array) => number;
  readonly step: (m: unknown, cycles: number) => number;
  readonly clocks: (m: unknown, mask: number, levels: number, time: number) => number;
  readonly traceFlush: (m: unknown) => void;
  readonly vectors: (m: unknown, ins: Int32Array, nIn: number, outs: Int32Array, nOut: number, stim: Uint32Array, out: Uint32Array, cycles: number) => number;
  readonly memoryWrite: (m: unknown, mem: number, addr: number, count: number, words: Uint32Array) => number;
  readonly memoryRead: (m: unknown, mem: number, addr: number, count: number, words: Uint32Array) => number;
  readonly traceOpen: (m: unknown, path: string) => number;
  readonly traceClose: (m: unknown) => void;
}

const libraries = new Map<string, ModelLibrary>();

function loadLibrary(path: string): ModelLibrary {
  let lib = libraries.get(path);
  if (lib) return lib;
  const so = koffi.load(path);
  lib = {
    abi: so.func('uint32_t rtgpu_abi_version()'),
    create: so.func('void *rtgpu_create(_Out_ char *err, int errLen)'),
    destroy: so.func('void rtgpu_destroy(void *m)'),
    error: so.func('int32_t rtgpu_error(void *m, _Out_ char *buf, int32_t len)'),
    reports: so.func('int32_t rtgpu_reports(void *m, _Out_ char *buf, int32_t len)'),
    poke: so.func('void rtgpu_poke(void *m, int32_t signal, const uint32_t *words)'),
    peek: so.func('int32_t rtgpu_peek(void *m, int32_t signal, _Out_ uint32_t *words)'),
    step: so.func('int32_t rtgpu_step(void *m, uint32_t cycles)'),
    clocks: so.func('int32_t rtgpu_clocks(void *m, uint32_t mask, uint32_t levels, double time)'),
    traceFlush: so.func('void rtgpu_trace_flush(void *m)'),
    vectors: so.func('int32_t rtgpu_run_vectors(void *m, const int32_t *ins, int32_t nIn, const int32_t *outs, int32_t nOut, const uint32_t *stim, _Out_ uint32_t *out, uint32_t cycles)'),
    memoryWrite: so.func('int32_t rtgpu_memory_write(void *m, int32_t mem, uint32_t addr, uint32_t count, const uint32_t *words)'),
    memoryRead: so.func('int32_t rtgpu_memory_read(void *m, int32_t mem, uint32_t addr, uint32_t count, _Out_ uint32_t *words)'),
    traceOpen: so.func('int32_t rtgpu_trace_open(void *m, const char *path)'),
    traceClose: so.func('void rtgpu_trace_close(void *m)'),
  } as ModelLibrary;
  if (lib.abi() !== ABI_VERSION) throw new Error(`${path} speaks model ABI ${lib.abi()}, this rtgpu expects ${ABI_VERSION}: delete the build cache`);
  libraries.set(path, lib);
  return lib;
}

const cString = (b: Buffer) => b.toString('utf8', 0, Math.max(0, b.indexOf(0)));

/**
 * What a Verilated `$error` printed (`[0] %Error: PSub.sv:30: Assertion failed in TOP.Top.u_a: text`): the
 * instance path below the top (`TOP.<top>` dropped) and the text.
 */
export function verilatorErrorLine(line: string): { scope: string[] | null; text: string } {
  const m = /%Error: [^:]*:\d+: Assertion failed in (\S+?)(?:: (.*))?$/.exec(line);
  if (!m) return { scope: null, text: line };
  return { scope: m[1]!.split('.').slice(2), text: m[2] ?? '' };
}

/** One Verilated model instance behind the Engine interface. */
class VerilatorEngine implements Engine {
  private model: unknown;
  /** The failed property (or other $error) that stopped the model, once raised. */
  private stoppedBy: Error | undefined;

  constructor(
    private readonly lib: ModelLibrary,
    private readonly x: ExternalDesign,
  ) {
    this.model = this.create();
  }

  private create(): unknown {
    const err = Buffer.alloc(1024);
    const m = this.lib.create(err, err.length);
    if (!m) throw new Error(`verilator: cannot start ${this.x.design.top}: ${cString(err)}`);
    return m;
  }

  /**
   * A status of 1 means the design stopped the simulation ($finish, $stop, $fatal or a runtime error); 2,
   * that an edge reported a $error (a failed property: PropertyFailedError).
   */
  private check(status: number): void {
    if (status === 0) return;
    if (status === 2) throw this.stopped();
    const buf = Buffer.alloc(2048);
    this.lib.error(this.model, buf, buf.length);
    throw new Error(`verilator: ${this.x.design.top}: ${cString(buf)}\n(powerOn() starts it again)`);
  }

  /** The error of the $error that stopped the model: raised once, then every call says the model stopped. */
  private stopped(): Error {
    if (this.stoppedBy) return new Error(`verilator: ${this.x.design.top} stopped at cycle ${this.stoppedBy instanceof PropertyFailedError ? `${this.stoppedBy.cycle}: ${this.stoppedBy.property} failed` : 'a $error'}; powerOn() starts it again`);
    return (this.stoppedBy = engineReportsError(this.x, 'verilator', this.reports()));
  }

  /** The $error reports of the edge that stopped the run. */
  private reports(): EngineReport[] {
    let buf = Buffer.alloc(1 << 16);
    const n = this.lib.reports(this.model, buf, buf.length);
    if (n >= buf.length) this.lib.reports(this.model, (buf = Buffer.alloc(n + 1)), buf.length);
    return cString(buf)
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [cycle, time, ...text] = line.split('\t');
        return { cycle: Number(cycle), timePs: Number(time), ...verilatorErrorLine(text.join('\t')) };
      });
  }

  poke(signal: number, words: Uint32Array): void {
    this.lib.poke(this.model, signal, words);
  }

  peek(signal: number, into: Uint32Array): void {
    this.check(this.lib.peek(this.model, signal, into));
  }

  peekMany(signals: readonly number[], into: readonly Uint32Array[]): void {
    // (The X-as-zero flag of a don't-care value means nothing to two-state Verilator.)
    signals.forEach((s, i) => this.peek(s & 0x7fffffff, into[i]!));
  }

  step(cycles: number): void {
    this.check(this.lib.step(this.model, cycles));
  }

  clocks(mask: number, levels: number, time: number, timed: boolean): void {
    this.check(this.lib.clocks(this.model, mask, levels, timed ? time : -1));
  }

  traceFlush(): void {
    this.lib.traceFlush(this.model);
  }

  sync(): void {
    // Every call answers at once.
  }

  runVectors(ins: Int32Array, outs: Int32Array, stimulus: Uint32Array, cycles: number, outWords: number): Uint32Array {
    const out = new Uint32Array(Math.max(1, outWords * cycles));
    this.check(this.lib.vectors(this.model, ins, ins.length, outs, outs.length, stimulus.length ? stimulus : new Uint32Array(1), out, cycles));
    return outWords * cycles ? out : new Uint32Array(0);
  }

  memoryWrite(memory: number, addr: number, count: number, words: Uint32Array): void {
    if (this.lib.memoryWrite(this.model, memory, addr, count, words) !== 0) throw new Error(`verilator: memory ${this.x.memories[memory]!.memory.name}: ${count} words at ${addr} out of range`);
  }

  memoryRead(memory: number, addr: number, count: number): Uint32Array {
    const out = new Uint32Array(Math.max(1, count * wordsOf(this.x.memories[memory]!.memory.width)));
    if (this.lib.memoryRead(this.model, memory, addr, count, out) !== 0) throw new Error(`verilator: memory ${this.x.memories[memory]!.memory.name}: ${count} words at ${addr} out of range`);
    return out;
  }

  traceStart(path: string): void {
    const r = this.lib.traceOpen(this.model, path);
    if (r === -1) throw new Error(`verilator: ${this.x.design.top} was built without waveform support; compile it with { backend: 'verilator', trace: true }`);
    if (r !== 0) throw new Error(`verilator: cannot write the waveform ${path}`);
  }

  traceStop(): void {
    this.lib.traceClose(this.model);
  }

  powerOn(): void {
    this.lib.destroy(this.model);
    this.model = this.create();
    this.stoppedBy = undefined;
  }

  close(): void {
    this.lib.destroy(this.model);
  }
}

export function compileVerilatorSimulator(design: Design, opts: VerilatorOptions): Promise<ExternalSimulator> {
  return startVerilator(externalDesign(design, { registers: opts.registers ?? false, resetCheckSeed: opts.resetCheckSeed }), opts);
}

/** Builds and loads the model of an external design (its emitted files as given). */
export async function startVerilator(x: ExternalDesign, opts: Omit<VerilatorOptions, 'backend' | 'registers'>): Promise<ExternalSimulator> {
  const library = await buildVerilatorModel(x, opts, opts.log);
  const engine = new VerilatorEngine(loadLibrary(library), x);
  return new ExternalSimulator('verilator', x, engine);
}
