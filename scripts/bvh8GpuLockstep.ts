// The soak's whole-GPU BVH8 check (scripts/bvh8-soak.ts --gpu-lockstep): rtgpu_top with BVH8 IC cores in lockstep on TS,
// Verilator and Icarus, on a frame of thin rods built with oriented boxes and on an image deeper than the traversal
// stack, every pixel, fault and counter against the ISA simulator.
import { encodeBvh8SceneImage } from '../src/bvh/index.ts';
import { buildFrame } from '../src/host/frame.ts';
import { defaultCamera, type Camera } from '../src/host/camera.ts';
import { defaultScene } from '../src/scenes/defaultScene.ts';
import { mergeScenes } from '../src/scenes/sceneLibrary.ts';
import { thinRods } from '../src/scenes/thinRodsScene.ts';
import { deepChain } from '../src/gpu/bvh8/verification/deepChainVectors.ts';
import { defaultBvh8GpuParams } from '../src/gpu/top/gpuTop.ts';
import { runGpu, type GpuJob, type GpuRunResult, type LockstepSim } from '../src/host/runtime/index.ts';

/** test/gpu/gpuBvh8.test.ts's GPU: one RT core and one IC core keep the three simulators' build small. */
const gpu = { ...defaultBvh8GpuParams, rtCores: 1, icCores: 1, nodes: 1024 };

const summary = (r: GpuRunResult) => JSON.stringify({ pixels: r.pixels.map((p) => [p.pixel, ...p.ret]), faults: [...r.faults].sort((a, b) => a - b), rays: r.stats.rays, nodeTests: r.stats.nodeTests, triangleTests: r.stats.triangleTests });

/** Runs both frames on `sims` (one: alone, not in lockstep); null when every one agrees with the ISA simulator, else what differed. */
export async function bvh8GpuLockstep(log: (line: string) => void, sims: readonly LockstepSim[] = ['ts', 'verilator', 'icarus']): Promise<string | null> {
  const rodsCamera: Camera = { ...defaultCamera, look: [-0.55, 1.05, 0.1], fov: 15 };
  const rods = buildFrame({ kernel: 'shade', camera: rodsCamera, width: 3, height: 2, scene: mergeScenes(defaultScene(), thinRods(1)), traversal: 'bvh8', obb: true });
  const chainCamera: Camera = { eye: [100, 100, -1], look: [100, 100, 0], up: [0, 1, 0], fov: 0.5 };
  const chain = deepChain(64);
  const deep = { ...buildFrame({ kernel: 'id', camera: chainCamera, width: 2, height: 1, scene: defaultScene(), traversal: 'bvh8' }), triangles: encodeBvh8SceneImage(chain.triangles, chain.words) };
  const frames: [string, GpuJob][] = [['thin rods with oriented boxes, shade 3x2', rods], ['a chain 64 box nodes deep (stack overflow), id 2x1', deep]];
  for (const [what, job] of frames) {
    const iss = await runGpu(job, { sim: 'iss' });
    const run = await runGpu(job, sims.length === 1 ? { sim: sims[0]!, gpu, log } : { sim: 'lockstep', lockstep: sims, gpu, log });
    log(`${what}: ${run.stats.cycles} cycles on ${sims.join(', ')}, ${run.faults.length} faulted pixels, ${(run.stats.wallSeconds - run.stats.setupSeconds).toFixed(1)} s after ${run.stats.setupSeconds.toFixed(1)} s of setup`);
    if (summary(run) !== summary(iss)) return `${what}: rtgpu_top ${summary(run)}, the ISA simulator ${summary(iss)}`;
  }
  return null;
}
