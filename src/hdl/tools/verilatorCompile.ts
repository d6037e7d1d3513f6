// How Verilator builds compile their C++: the optimization level (-O2, or `$RTGPU_VERILATOR_OPT`), a precompiled header, and ccache when installed.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { MissingToolError, toolVersion } from './toolchain.ts';

const LEVELS = ['0', '1', '2', '3', 's', 'g'] as const;

/**
 * `-O2` (a model that runs fast), or `-O<level>` from `$RTGPU_VERILATOR_OPT`. `0` compiles a large design
 * in a quarter to a half of the time and runs it several times slower: the test suite's choice, whose
 * runs are short. The level is part of every build's cache key, so builds of both levels coexist.
 */
export function verilatorCxxOptimization(): string {
  const level = process.env.RTGPU_VERILATOR_OPT;
  if (level === undefined || level === '') return '-O2';
  if (!(LEVELS as readonly string[]).includes(level)) throw new Error(`RTGPU_VERILATOR_OPT must be one of ${LEVELS.join(', ')} (the C++ compiler's -O level), got '${level}'`);
  return `-O${level}`;
}

/** The precompiled header of a build's model files, in the make directory (`obj/`). */
const PCH = 'rtgpu_pch.h';
/** The prelude every model file sees first (VerilatorBuildOptions.prelude), beside it. */
const PRELUDE = 'rtgpu_prelude.h';

/**
 * The make variables of a build: the level on every compile line, and the precompiled header on the
 * model's own files. Verilator's makefile puts `OPT_FAST=-Os` (the per-cycle code) and `OPT_GLOBAL=-Os`
 * (the runtime) after `-CFLAGS`, so without these a `-CFLAGS -O0` build compiled most of the model at
 * `-Os` anyway and a `-O2` one was really `-Os`. `runtimeFlags` go to the runtime's files alone (they
 * do not include the precompiled header). Part of every build's cache key.
 */
export function verilatorMakeVariables(runtimeFlags = ''): string[] {
  const opt = verilatorCxxOptimization();
  // -Winvalid-pch: a header the compiler cannot use (other flags, a stale file) is a warning in the build's output, not a silent slow build.
  const model = `${opt} -Winvalid-pch -include ${PCH}`;
  return [`OPT_FAST=${model}`, `OPT_SLOW=${model}`, `OPT_GLOBAL=${opt}${runtimeFlags ? ` ${runtimeFlags}` : ''}`];
}

export interface VerilatorBuildOptions {
  /** The directory with the sources; Verilator writes and compiles the model in `obj/` below it. */
  readonly cwd: string;
  /** Verilator's arguments (flags, `--top-module`, `-o`, sources), without `--build` or `--Mdir`. */
  readonly args: readonly string[];
  /** Lines the precompiled header starts with: what every model file must see before Verilator's headers. */
  readonly prelude?: readonly string[];
  /** Flags for Verilator's runtime files alone (see verilatorMakeVariables). */
  readonly runtimeFlags?: string;
}

/**
 * Verilates and compiles. Every file of the model (and the wrapper) starts with `obj/rtgpu_pch.h`: the
 * prelude, verilated.h and `V<top>__Syms.h` (forced in with `-include`). A large model is compiled as
 * many files (Verilator's VM_PARALLEL_BUILDS), each of which would parse those headers again (1 to 2 s
 * a file at `-O0`, most of its compile time): there the header is precompiled once, which halves the
 * build's CPU time. A small model is one file, where precompiling would cost more than it saves.
 * Verilator's runtime files compile without it, with the same flags in every build, so that ccache
 * shares them between designs.
 */
export async function verilatorBuild(o: VerilatorBuildOptions): Promise<{ readonly ok: boolean; readonly output: string; readonly precompiledHeader: boolean }> {
  const env = await verilatorBuildEnv();
  const v = await execa('verilator', ['--Mdir', 'obj', ...o.args], { cwd: o.cwd, env, reject: false, all: true });
  if (v.exitCode !== 0) return { ok: false, output: v.all ?? '', precompiledHeader: false };
  const obj = join(o.cwd, 'obj');
  const names = readdirSync(obj);
  const makefile = names.find((f) => /^V.*\.mk$/.test(f) && !f.endsWith('_classes.mk'));
  const classes = names.find((f) => f.endsWith('_classes.mk'));
  const syms = names.find((f) => f.endsWith('__Syms.h'));
  if (!makefile || !classes || !syms) return { ok: false, output: `${v.all ?? ''}\nverilator wrote no makefile or __Syms.h in ${obj}`, precompiledHeader: false };
  // The prelude in a file of its own, so that a hierarchical block's files (a directory below obj/) reach it too.
  writeFileSync(join(obj, PRELUDE), [...(o.prelude ?? []), ''].join('\n'));
  writeFileSync(join(obj, PCH), [`#include "${PRELUDE}"`, '#include "verilated.h"', `#include "${syms}"`, ''].join('\n'));
  // A hierarchical block (`--hierarchical`) is compiled in obj/V<block>/ by a make below ours, with our flags:
  // its own header, without the top's __Syms.h, never precompiled.
  for (const block of readdirSync(obj, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    writeFileSync(join(obj, block.name, PCH), [`#include "../${PRELUDE}"`, '#include "verilated.h"', ''].join('\n'));
  }
  const precompiledHeader = /^VM_PARALLEL_BUILDS\s*=\s*1\s*$/m.test(readFileSync(join(obj, classes), 'utf8'));
  // The header compiles with the model files' flags minus its own -include; make builds it before them.
  const rules = precompiledHeader
    ? [
        `${PCH}.gch: ${PCH} ${syms}`,
        `\t$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(filter-out -Winvalid-pch -include ${PCH},$(OPT_FAST)) -x c++-header -o $@ $<`,
        `$(VK_FAST_OBJS) $(VK_SLOW_OBJS) $(VK_USER_OBJS): ${PCH}.gch`,
      ]
    : [];
  writeFileSync(join(obj, 'rtgpu_pch.mk'), [`include ${makefile}`, ...rules, ''].join('\n'));
  const m = await execa('make', ['-C', 'obj', '-f', 'rtgpu_pch.mk', '-j', '2', ...verilatorMakeVariables(o.runtimeFlags)], { cwd: o.cwd, env, reject: false, all: true });
  return { ok: m.exitCode === 0, output: [v.all, m.all].filter(Boolean).join('\n'), precompiledHeader };
}

/**
 * Removes what the build of `product` (a library or executable in `obj/`) left beside it: object files,
 * archives, generated C++ and the precompiled header are most of a build's bytes (rtgpu_top at -O0: 132 MB,
 * of which the header 73 MB and the library 5.5 MB), and the build cache keeps builds by their bytes.
 */
export function keepOnlyBuildProduct(cwd: string, product: string): void {
  const obj = join(cwd, 'obj');
  for (const name of readdirSync(obj)) if (name !== product) rmSync(join(obj, name), { recursive: true, force: true });
}

/**
 * The environment of a Verilator build: `OBJCACHE=ccache` when ccache is installed. Every build compiles
 * Verilator's runtime library (verilated.cpp and the rest: about 4 s) with the same flags; ccache compiles
 * it once, and a design's own files again only when they change.
 */
export async function verilatorBuildEnv(): Promise<Record<string, string>> {
  try {
    await toolVersion('ccache');
    return { OBJCACHE: 'ccache' };
  } catch (e) {
    if (e instanceof MissingToolError) return {};
    throw e;
  }
}
