// The host runtime: runs a frame (memory images + pixel count) on the GPU on any backend.
import { Machine, InstructionLimitError, MemoryImageError } from '../../iss/index.ts';
import { imageToScene } from '../../golden/scene.ts';
import { parseBvh8SceneImage, parseBvhSceneImage } from '../../bvh/index.ts';
import { GpuRunError, sourceLineOf, type GpuJob, type GpuRunOptions, type GpuRunResult, type RunPixel } from './gpuJob.ts';

import { runFrame, type DriverOptions } from './gpuDriver.ts';
import { runFrameParallel } from './parallelFrame.ts';
import { LockstepMismatchError } from '../../hdl/sim/index.ts';
import { hasTextureUnit } from '../../gpu/top/gpuTexture.ts';

export * from './gpuJob.ts';
export { DEFAULT_MAX_CYCLES, runFrame, gpuParamsFor, GpuSession, type DriverOptions, type DriverRun } from './gpuDriver.ts';
export { defaultRenderJobs, frameChunks, runFrameParallel } from './parallelFrame.ts';
export { gpuSimulator } from './gpuSimulator.ts';
export { cachedGpuDesign } from './cachedGpuDesign.ts';

/** The scene of the job's triangle image and, for BVH traversal, exactly the BVH the image holds. */
function issScene(job: GpuJob) {
  if ((job.traversal ?? 'brute-force') === 'brute-force') return { scene: imageToScene(job.triangles, '<triangle image>'), bvh: undefined, bvh8: undefined };
  // The BVH8 image holds the vertices: the scene is not needed.
  if (job.traversal === 'bvh8') return { scene: { vertices: new Uint32Array(0), triangles: new Uint32Array(0) }, bvh: undefined, bvh8: parseBvh8SceneImage(job.triangles, '<BVH8 scene image>').nodes };
  const { ordered, bvh } = parseBvhSceneImage(job.triangles, '<BVH scene image>');
  return { scene: ordered, bvh, bvh8: undefined };
}

/** The ISA simulator as the golden model: cycles = instructions, no per-core figures; progress pixel by pixel. */
function runOnIss(job: GpuJob, opts: GpuRunOptions): GpuRunResult {
  const start = performance.now();
  const { scene, bvh, bvh8 } = issScene(job);
  // The pixels done so far: what a stop at the instruction limit leaves.
  const done: RunPixel[] = [];
  const faulted: number[] = [];
  const onPixel = (p: RunPixel, fault: boolean, instructions: number) => {
    done.push(p);
    if (fault) faulted.push(p.pixel);
    opts.onProgress?.(done.length, job.pixels, instructions);
  };
  try {
    // Texture memory as the GPU's: the job's image, or an empty one when the GPU would have a texture unit.
    const texture = job.texture ?? (opts.textureUnit ? new Uint32Array(0) : undefined);
    const machine = new Machine({ program: job.program, constants: job.constants, texture, scene, traversal: job.traversal, bvh, bvh8, maxInstructions: opts.maxCycles, onPixel });
    const r = machine.run(job.pixels, job.firstPixel ?? 0);
    const wallSeconds = (performance.now() - start) / 1000;
    const { rays, triangleTests, nodeTests } = r.trace;
    return { pixels: r.pixels, faults: r.faults, stats: { cycles: r.instructions, instructions: r.instructions, rays, triangleTests, nodeTests, rtBusyCycles: [], rtIssueCycles: [], icBusyCycles: [], wallSeconds, setupSeconds: 0 } };
  } catch (e) {
    if (e instanceof InstructionLimitError) {
      const line = sourceLineOf(job, e.pc);
      const at = `PC 0x${e.pc.toString(16).padStart(4, '0')}${line ? ` in ${line}` : ''}`;
      throw new GpuRunError(`pixel ${e.pixel}: no fin after ${e.limit} instructions (stopped at ${at}); raise the instruction limit if the kernel is just long (rtgpu run --max-instructions, rtgpu render --max-cycles)`, { pixels: done, faults: faulted });
    }
    if (e instanceof MemoryImageError) throw new GpuRunError(e.message);
    throw e;
  }
}

/**
 * Run a frame. 'ts', 'verilator' and 'icarus' drive `rtgpu_top` live on that simulator; 'lockstep' on
 * several at once, failing at the first cycle where any output differs; 'iss' is the golden model
 * (in-process: `jobs` does not apply). With `jobs` > 1 the frame is split across worker threads.
 */
export async function runGpu(job: GpuJob, opts: DriverOptions): Promise<GpuRunResult> {
  if (opts.sim === 'iss') {
    if (opts.vcd) throw new GpuRunError('--vcd needs a simulator of the RTL (ts, verilator, icarus or lockstep), not the ISA simulator');
    return runOnIss(job, opts);
  }
  // Without a texture unit txd would fault every textured pixel: refused before the GPU is built (the driver also checks FEATURES).
  if (job.texture !== undefined && !opts.textureUnit && !hasTextureUnit(opts.gpu?.texture)) throw new GpuRunError(`this frame samples textures (txd), which needs a GPU with a texture unit; the simulated GPU (--sim ${opts.sim}) has none: add --texture-unit, or use --sim iss`);
  try {
    if ((opts.jobs ?? 1) > 1) return await runFrameParallel(job, opts, opts.jobs!);
    const { pixels, faults, stats } = await runFrame(job, opts);
    return { pixels, faults, stats };
  } catch (e) {
    if (e instanceof LockstepMismatchError) throw new GpuRunError(`the simulators disagree:\n${e.message}`);
    throw e;
  }
}
