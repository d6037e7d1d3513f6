// The self-checking testbenches in rtl-out/: each design's from its seeded stimulus, rtgpu_top's from a tiny frame the host runtime drives.
import { portableTestbench, stimulusRecording, type CosimDesign, type PortableTestbench } from '../hdl/cosim/index.ts';
import { topModule, type Design, type EmittedDesign } from '../hdl/index.ts';
import { bvhSceneImage } from '../bvh/index.ts';
import { SceneError, type Scene } from '../golden/scene.ts';
import { defaultScene } from '../golden/defaultScene.ts';
import { defaultCamera } from '../host/camera.ts';
import { buildFrame, checkSceneFits } from '../host/frame.ts';
import { runFrame } from '../host/runtime/index.ts';
import { gpuSimulator } from '../gpu/top/gpuDesign.ts';
import type { GpuParams } from '../gpu/top/gpuTop.ts';

/**
 * The stimulus of each design's testbench: up to 1,000 cycles, fewer for wide designs so that a vector file
 * stays near 128 KB (rtl-out is committed: every regeneration diffs it), but never under 250.
 */
export const designStimulus = { maxCycles: 1000, minCycles: 250, vectorBytes: 128 * 1024, seed: 1 } as const;

/** Cycles of a design's testbench: its vector rows are every port as hex digits, space separated. */
function stimulusCycles(design: Design): number {
  const top = topModule(design);
  const rowBytes = top.ports.reduce((s, p) => s + Math.ceil(top.nets[p]!.width / 4) + 1, 0) + 1;
  const { maxCycles, minCycles, vectorBytes } = designStimulus;
  return Math.max(minCycles, Math.min(maxCycles, Math.floor(vectorBytes / rowBytes)));
}

/** The testbench of a catalogue design, run from its directory, where `fileList` lists its sources. */
export function designTestbench(d: CosimDesign, design: Design, emitted: EmittedDesign, fileList: string): PortableTestbench {
  const { seed } = designStimulus;
  const cycles = stimulusCycles(design);
  return portableTestbench(design, stimulusRecording(d, design, cycles, seed), {
    emitted,
    description: `${cycles} cycles of the seeded random stimulus of rtgpu's co-simulation design '${d.name}' (seed ${seed})`,
    layout: { sources: `-f ${fileList}` },
  });
}

/**
 * rtgpu_top's frame: two pixels of the `id` kernel. The host answers DMA with random stalls, which
 * exercises the handshakes and makes the driver step cycle by cycle and stop at the interrupt (about
 * 1,000 cycles); its fast batches would record thousands of idle cycles after it.
 */
export const handoffFrame = { kernel: 'id', width: 2, height: 1, dmaStallSeed: 1 } as const;

const emptyScene: Scene = { vertices: new Uint32Array(0), triangles: new Uint32Array(0) };

/** The built-in scene if the configuration's memories hold it, else no triangles (every ray misses). */
function frameScene(params: GpuParams): Scene {
  const scene = defaultScene();
  try {
    if (params.traversal === 'bvh') checkSceneFits(scene, '<scene>', { triangles: params.triangles, vertices: params.vertices, nodes: params.nodes!, triRanges: params.triRanges! }, bvhSceneImage(scene).bvh);
    else checkSceneFits(scene, '<scene>', params);
    return scene;
  } catch (e) {
    if (e instanceof SceneError) return emptyScene;
    throw e;
  }
}

/** The testbench of `design`, rtgpu_top in configuration `params`: the frame recorded on the TS simulator. */
export async function gpuTestbench(design: Design, params: GpuParams, emitted: EmittedDesign, layout: { sources: string; dir: string; runFrom: string }): Promise<PortableTestbench> {
  const { kernel, width, height, dmaStallSeed } = handoffFrame;
  const scene = frameScene(params);
  const job = buildFrame({ kernel, camera: defaultCamera, width, height, scene, traversal: params.traversal ?? 'brute-force' });
  const run = await runFrame(job, { sim: 'ts', record: true, dmaStallSeed, gpu: params });
  if (run.design !== design) throw new Error(`internal: the frame ran on another elaboration of ${design.top} than the one given`);
  const what = `a ${width}x${height} frame of the '${kernel}' kernel on ${scene === emptyScene ? 'an empty scene' : 'the built-in scene'}, from power-on to the interrupt: rtgpu's host runtime programs the registers and answers DMA with random stalls (seed ${dmaStallSeed})`;
  return portableTestbench(design, run.recording!, { emitted, simulator: gpuSimulator(design), description: what, layout });
}
