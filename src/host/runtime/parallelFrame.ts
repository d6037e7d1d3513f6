// A frame split across worker threads: each simulates its own GPU instance and renders chunks of whole
// patches handed out in order; the pixels are those of a single-instance run, the counters add up.
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../hdl/tools/index.ts';
import { gpuParamsFor, runFrame, type DriverOptions } from './gpuDriver.ts';
import { cachedGpuDesign } from './cachedGpuDesign.ts';
import type { Design } from '../../hdl/index.ts';
import { GpuRunError, type GpuJob, type GpuRunResult, type GpuStats, type PartialRun, type RunPixel } from './gpuJob.ts';

export type ToWorker = { type: 'design'; design: Design } | { type: 'run'; first: number; count: number } | { type: 'finish' };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'progress'; written: number; cycles: number }
  | { type: 'done'; first: number; count: number; ret: Uint32Array; faults: number[] }
  | { type: 'stats'; stats: GpuStats }
  | { type: 'error'; name: string; message: string; stack?: string; partial?: PartialRun };

const PATCH = 32;
/** Chunks per worker: enough that a worker with cheap pixels (sky) takes more, few enough that chunk overhead (a START, a few hundred cycles) stays small. */
const CHUNKS_PER_WORKER = 4;
/**
 * A worker costs about 2 s of setup (loading the modules, compiling the simulator) and about 2 s more
 * while V8 optimizes its simulator loop; a patch of the built-in scene takes about 35 ms on one GPU. Below
 * this many patches per worker the workers do not pay (64x48, 96 patches: 5.5 s on one GPU, 7.0 s on two).
 */
const MIN_PATCHES_PER_WORKER = 128;

/** The default worker count: one per core, fewer for small frames (1 means no workers). */
export function defaultRenderJobs(pixels: number): number {
  return Math.max(1, Math.min(availableParallelism(), Math.floor(Math.ceil(pixels / PATCH) / MIN_PATCHES_PER_WORKER)));
}

/** The frame's pixel ranges: whole patches, `chunks` of them or fewer, in pixel order. */
export function frameChunks(first: number, pixels: number, chunks: number): { first: number; count: number }[] {
  const patches = Math.ceil(pixels / PATCH);
  const per = Math.max(1, Math.ceil(patches / chunks));
  const out: { first: number; count: number }[] = [];
  for (let p = 0; p < patches; p += per) out.push({ first: first + PATCH * p, count: Math.min(PATCH * per, pixels - PATCH * p) });
  return out;
}

/** A worker running frameWorker: the compiled file in dist/, or in a checkout its TypeScript source. */
function startFrameWorker(workerData: unknown): Worker {
  return startWorker(new URL(`./frameWorker${extname(fileURLToPath(import.meta.url))}`, import.meta.url), workerData);
}

/** Pixels from .. from + count − 1 of the frame's results (`ret`: 4 words a pixel from pixel `first`). */
function pixelsOf(ret: Uint32Array, first: number, from: number, count: number): RunPixel[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from - first + k;
    return { pixel: (first + i) >>> 0, ret: [...ret.subarray(4 * i, 4 * i + 4)] as [number, number, number, number] };
  });
}

/** Counters of several GPU instances: sums (per-core busy cycles core by core). */
function sumStats(all: readonly GpuStats[], wallSeconds: number): GpuStats {
  const add = (f: (s: GpuStats) => number) => all.reduce((a, s) => a + f(s), 0);
  const addEach = (f: (s: GpuStats) => readonly number[]) => f(all[0]!).map((_, i) => add((s) => f(s)[i]!));
  return {
    cycles: add((s) => s.cycles),
    instructions: add((s) => s.instructions),
    rays: add((s) => s.rays),
    triangleTests: add((s) => s.triangleTests),
    nodeTests: add((s) => s.nodeTests),
    rtBusyCycles: addEach((s) => s.rtBusyCycles),
    rtIssueCycles: addEach((s) => s.rtIssueCycles),
    icBusyCycles: addEach((s) => s.icBusyCycles),
    ...(all[0]!.texture ? { texture: sumCounts(all.map((s) => s.texture!)) } : {}),
    wallSeconds,
    // The workers set up side by side: the frame waited for the slowest.
    setupSeconds: Math.max(...all.map((s) => s.setupSeconds)),
    gpus: all.length,
  };
}

/** Texture counters of several GPU instances (each has a unit when the first has). */
/** Every field summed over the workers: a record of counts, such as GpuStats.texture. */
function sumCounts<T extends { [K in keyof T]: number }>(all: readonly T[]): T {
  const keys = Object.keys(all[0]!) as (keyof T)[];
  return Object.fromEntries(keys.map((k) => [k, all.reduce((a, s) => a + s[k], 0)])) as T;
}

/**
 * Run `job` on `jobs` GPU instances in worker threads, each compiling its own TS simulator. Rejects with
 * the first worker's error; the others are stopped. When that worker was stopped part way (the cycle
 * limit), the error's `partial` holds the chunks finished so far and that worker's finished pixels.
 * A frame of no pixels runs in this thread.
 */
export async function runFrameParallel(job: GpuJob, opts: DriverOptions, jobs: number): Promise<GpuRunResult> {
  if (!Number.isInteger(jobs) || jobs < 1) throw new GpuRunError(`jobs must be a whole number of at least 1, got ${jobs}`);
  if (opts.sim !== 'ts') throw new GpuRunError(`render workers run the TS simulator only (not '${opts.sim}'): use --jobs 1`);
  if (opts.vcd !== undefined) throw new GpuRunError('--vcd writes one waveform of one GPU: render with --jobs 1');
  if (opts.record) throw new GpuRunError('recording the inputs needs a single GPU instance (--jobs 1)');
  const start = performance.now();
  const first = job.firstPixel ?? 0;
  const queue = frameChunks(first, job.pixels, jobs * CHUNKS_PER_WORKER);
  if (queue.length === 0) {
    const { pixels, faults, stats } = await runFrame(job, opts);
    return { pixels, faults, stats };
  }
  const workerCount = Math.min(jobs, queue.length);
  // Each worker's first range is its own, so every worker runs one at least (else one that started late
  // would find the queue empty, and its GPU's counters would be missing from the frame's).
  const firstRanges = queue.splice(0, workerCount);
  const ret = new Uint32Array(4 * job.pixels);
  const chunksDone: { first: number; count: number }[] = [];
  const faults: number[] = [];
  const stats: GpuStats[] = [];
  let rangesDone = 0;
  let pixelsDone = 0;
  const written = new Array<number>(workerCount).fill(0);
  const cycles = new Array<number>(workerCount).fill(0);
  // Only what a worker can clone: no callbacks.
  const { onProgress, log: _log, ...plain } = opts;
  // Elaborated once here while the workers start, then cloned into each (they compile their own simulators).
  let elaborated: Design | undefined;
  const design = () => (elaborated ??= opts.design ?? cachedGpuDesign(opts.gpu ?? gpuParamsFor(job, opts)));
  const workers: Worker[] = [];

  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (e: Error) => reject(e);
      for (let w = 0; w < workerCount; w++) {
        const worker = startFrameWorker({ job, opts: plain });
        workers.push(worker);
        worker.on('online', () => worker.postMessage({ type: 'design', design: design() } satisfies ToWorker));
        let finished = false;
        const next = (range = queue.shift()) => {
          worker.postMessage(range === undefined ? ({ type: 'finish' } satisfies ToWorker) : ({ type: 'run', ...range } satisfies ToWorker));
        };
        worker.on('message', (m: FromWorker) => {
          switch (m.type) {
            case 'ready':
              return next(firstRanges[w]);
            case 'progress':
              written[w] = m.written;
              cycles[w] = m.cycles;
              return onProgress?.(pixelsDone + written.reduce((a, b) => a + b, 0), job.pixels, cycles.reduce((a, b) => a + b, 0));
            case 'done':
              ret.set(m.ret, 4 * (m.first - first));
              chunksDone.push({ first: m.first, count: m.count });
              faults.push(...m.faults);
              pixelsDone += m.count;
              written[w] = 0;
              rangesDone++;
              return next();
            case 'stats':
              finished = true;
              stats.push(m.stats);
              if (stats.length === workerCount) resolve();
              return;
            case 'error': {
              const partial = m.partial && { ...m.partial, pixels: [...chunksDone.flatMap((r) => pixelsOf(ret, first, r.first, r.count)), ...m.partial.pixels], faults: [...faults, ...m.partial.faults] };
              const e = m.name === 'GpuRunError' ? new GpuRunError(m.message, partial) : Object.assign(new Error(m.message), { name: m.name, stack: m.stack });
              return fail(e);
            }
          }
        });
        worker.on('error', fail);
        worker.on('exit', (code) => {
          if (!finished) fail(new GpuRunError(`a render worker stopped (exit code ${code}) before its GPU finished`));
        });
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  if (rangesDone === 0 && job.pixels > 0) throw new GpuRunError('no render worker ran a pixel');
  const pixels = pixelsOf(ret, first, first, job.pixels);
  // In frame order (pixel ids may wrap past 2^32).
  faults.sort((a, b) => ((a - first) >>> 0) - ((b - first) >>> 0));
  return { pixels, faults, stats: sumStats(stats, (performance.now() - start) / 1000) };
}
