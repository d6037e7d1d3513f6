// How Verilator builds compile their C++: the optimization level (-O2, or `$RTGPU_VERILATOR_OPT`), and ccache when installed.
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

/**
 * The same level for Verilator's generated makefile, as `-MAKEFLAGS` arguments. Its `OPT_FAST` (the
 * per-cycle code) and `OPT_GLOBAL` (the runtime) default to `-Os` and come after `-CFLAGS` on the compile
 * line, so without these a `-CFLAGS -O0` build compiled most of the model at `-Os` anyway (3 to 4 times
 * longer on a large design) and a `-O2` one was really `-Os`.
 */
export function verilatorMakeOptimization(): string[] {
  const opt = verilatorCxxOptimization();
  return ['OPT_FAST', 'OPT_SLOW', 'OPT_GLOBAL'].flatMap((v) => ['-MAKEFLAGS', `${v}=${opt}`]);
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
