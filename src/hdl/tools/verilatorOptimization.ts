// The C++ optimization level of Verilator builds: -O2 by default, `$RTGPU_VERILATOR_OPT` for builds that run briefly.

const LEVELS = ['0', '1', '2', '3', 's', 'g'] as const;

/**
 * `-O2` (a model that runs fast), or `-O<level>` from `$RTGPU_VERILATOR_OPT`. `0` compiles a large design
 * in about 60 % of the time and runs it several times slower: the test suite's choice, whose runs are
 * short. The level is part of every build's cache key, so builds of both levels coexist.
 */
export function verilatorCxxOptimization(): string {
  const level = process.env.RTGPU_VERILATOR_OPT;
  if (level === undefined || level === '') return '-O2';
  if (!(LEVELS as readonly string[]).includes(level)) throw new Error(`RTGPU_VERILATOR_OPT must be one of ${LEVELS.join(', ')} (the C++ compiler's -O level), got '${level}'`);
  return `-O${level}`;
}
