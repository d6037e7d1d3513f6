// External tools shared by the simulators, co-simulation and synthesis: discovery with install hints, the content-addressed build cache, Verilator's compile settings, the Yosys runner, and worker threads that start from TypeScript.
export { MissingToolError, toolVersion, type ToolName } from './toolchain.ts';
export { cacheRoot, cacheDir, cachedBuild, contentHash, readCachedValue, writeCachedValue, pruneCachedValues, cacheUsage, pruneCachedBuilds, CACHED_VALUE_BYTES_PER_KIND, CACHED_BUILD_BYTES_PER_KIND, type CacheKindUsage } from './buildCache.ts';
export { codeFingerprint } from './codeFingerprint.ts';
export { verilatorBuild, verilatorBuildEnv, verilatorCxxOptimization, verilatorMakeVariables, type VerilatorBuildOptions } from './verilatorCompile.ts';
export { runYosys, locateYosys, yosysIdentity, YosysError, YosysUnavailableError, type YosysCommand, type YosysProgress, type YosysRunOptions, type YosysRunResult } from './yosys.ts';
export { startWorker } from './typescriptWorker.ts';
export { checkSources, type SourceProblem } from './sourceCheck.ts';
