// The self-checking testbenches in rtl-out/: each design's from its seeded stimulus, rtgpu_top's from a tiny frame the host runtime drives.
import { portableTestbench, stimulusRecording, type CosimDesign, type PortableTestbench } from '../../hdl/cosim/index.ts';
import { topModule, type Design, type EmittedDesign } from '../../hdl/index.ts';
import { bvhSceneImage } from '../../bvh/index.ts';
import { SceneError, type Scene } from '../../golden/scene.ts';
import { defaultScene } from '../../scenes/defaultScene.ts';
import { TEXTURED_CAMERA, defaultCamera } from '../../host/camera.ts';
import { texturedMaterials, texturedScene } from '../../scenes/texturedScene.ts';
import { buildFrame, checkSceneFits } from '../../host/frame.ts';
import { runFrame, type GpuJob } from '../../host/runtime/index.ts';
import { gpuSimulator } from '../../host/runtime/gpuSimulator.ts';
import type { GpuParams } from '../../gpu/top/gpuTop.ts';
import { hasTextureUnit } from '../../gpu/top/gpuTexture.ts';

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

/**
 * The frame of a GPU with a texture unit: the textured kernel on the textured scene under its camera, 3×2
 * pixels; those on the floor run txd (trilinear) on the checker texture, whose texture-memory image the host
 * loads with the others (LOAD_TEXTURE); the unit's counters are read at the end. About 9,500 cycles.
 */
export const texturedHandoffFrame = { kernel: 'textured', width: 3, height: 2, dmaStallSeed: 1 } as const;

/** The frame rtgpu_top's testbench records in configuration `params`: textured when the GPU has a texture unit and the textured scene fits its memories. */
export interface HandoffFrame {
  readonly kernel: 'id' | 'textured';
  readonly width: number;
  readonly height: number;
  readonly dmaStallSeed: number;
  readonly scene: Scene;
  /** What the scene is, for the testbench's description and the README. */
  readonly sceneName: string;
}

const emptyScene: Scene = { vertices: new Uint32Array(0), triangles: new Uint32Array(0) };

/** Whether the configuration's memories hold `scene`. */
function sceneFits(scene: Scene, params: GpuParams): boolean {
  try {
    if (params.traversal === 'bvh') checkSceneFits(scene, '<scene>', { triangles: params.triangles, vertices: params.vertices, nodes: params.nodes!, triRanges: params.triRanges! }, bvhSceneImage(scene).bvh);
    else checkSceneFits(scene, '<scene>', params);
    return true;
  } catch (e) {
    if (e instanceof SceneError) return false;
    throw e;
  }
}

/**
 * The recorded frame: with a texture unit the textured one (texturedHandoffFrame) when its scene fits, else
 * handoffFrame's on the built-in scene if the configuration's memories hold it, else on no triangles (every ray misses).
 */
export function handoffFrameFor(params: GpuParams): HandoffFrame {
  if (hasTextureUnit(params.texture)) {
    const scene = texturedScene();
    if (sceneFits(scene, params)) return { ...texturedHandoffFrame, scene, sceneName: 'the textured scene' };
  }
  const scene = defaultScene();
  return sceneFits(scene, params) ? { ...handoffFrame, scene, sceneName: 'the built-in scene' } : { ...handoffFrame, scene: emptyScene, sceneName: 'an empty scene' };
}

/** The job of a handoff frame: the textured one with its camera, materials and texture-memory image. */
function handoffJob(frame: HandoffFrame, params: GpuParams): GpuJob {
  const { kernel, width, height, scene } = frame;
  const traversal = params.traversal ?? 'brute-force';
  if (kernel === 'textured') return buildFrame({ kernel, camera: TEXTURED_CAMERA, width, height, scene, materials: texturedMaterials(), traversal });
  return buildFrame({ kernel, camera: defaultCamera, width, height, scene, traversal });
}

/** The testbench of `design`, rtgpu_top in configuration `params`: the frame recorded on the TS simulator. */
export async function gpuTestbench(design: Design, params: GpuParams, emitted: EmittedDesign, layout: { sources: string; dir: string; runFrom: string }): Promise<PortableTestbench> {
  const frame = handoffFrameFor(params);
  const { kernel, width, height, dmaStallSeed } = frame;
  const job = handoffJob(frame, params);
  // On this very design: the recording must match the netlist the testbench is emitted for.
  const run = await runFrame(job, { sim: 'ts', record: true, dmaStallSeed, gpu: params, design });
  const txd = run.stats.texture?.requests ?? 0;
  const textured = job.texture === undefined ? '' : `, ${txd} txd on its ${job.texture.length}-word texture-memory image (loaded by LOAD_TEXTURE), the texture unit's counters read at the end`;
  const what = `a ${width}x${height} frame of the '${kernel}' kernel on ${frame.sceneName}${textured}, from power-on to the interrupt: rtgpu's host runtime programs the registers and answers DMA with random stalls (seed ${dmaStallSeed})`;
  return portableTestbench(design, run.recording!, { emitted, simulator: gpuSimulator(design), description: what, layout });
}
