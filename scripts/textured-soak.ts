// Soak test of the textured kernel: random cameras over the textured scene, its tetrahedron textured too with random texture
// coordinates (tilted planes, magnification and minification), on a random traversal, on the ISA simulator against the
// independent float64 renderer (test/host/texturedReference.ts) within docs/texture.md's tolerances.
// Usage: npx tsx scripts/textured-soak.ts [--frames 200] [--seed S]
import { parseArgs } from 'node:util';
import { texturedMaterials, texturedScene, TEXTURED_SHADERS } from '../src/scenes/texturedScene.ts';
import { defaultLights } from '../src/scenes/defaultScene.ts';
import { fromNumber, toNumber } from '../src/golden/float32.ts';
import { TEXCOORD_WORDS, triangleCount, type Scene } from '../src/golden/scene.ts';
import { buildFrame, DEFAULT_AMBIENT, DEFAULT_SKY } from '../src/host/frame.ts';
import { runGpu } from '../src/host/runtime/index.ts';
import type { Camera } from '../src/host/camera.ts';
import { createRng, seedFromEnv, type Rng } from '../src/util/seededRandom.ts';
import { TexturedReference } from '../test/host/texturedReference.ts';

function fail(message: string): never {
  console.error(`textured-soak: ${message}`);
  process.exit(2);
}

function flags() {
  try {
    return parseArgs({ options: { frames: { type: 'string', default: '200' }, seed: { type: 'string' } } }).values;
  } catch (e) {
    fail((e as Error).message);
  }
}
const values = flags();
const whole = (name: string, v: string) => (/^\d+$/.test(v) && Number(v) > 0 ? Number(v) : fail(`--${name} must be a positive whole number, got '${v}'`));
const frames = whole('frames', values.frames);
const seed = values.seed !== undefined ? whole('seed', values.seed) >>> 0 : seedFromEnv();
const rng = createRng(seed);
const uniform = (r: Rng, lo: number, hi: number) => lo + (hi - lo) * r();

/** The textured scene with its tetrahedron (the last 4 triangles) textured as well, at random (u, v) per corner. */
function randomScene(r: Rng): Scene {
  const base = texturedScene();
  const triangles = base.triangles.slice();
  const texcoords = base.texcoords!.slice();
  const n = triangleCount(base);
  const scale = uniform(r, 0.25, 6);
  for (let t = n - 4; t < n; t++) {
    triangles[4 * t + 3] = TEXTURED_SHADERS.floor;
    for (let k = 0; k < TEXCOORD_WORDS; k++) texcoords[TEXCOORD_WORDS * t + k] = fromNumber(uniform(r, -1, 1) * scale);
  }
  // The rest as the built-in scene, its masks and one-sided triangles included (the light panel casts no shadow).
  return { ...base, triangles, texcoords };
}

/** A camera in front of or inside the box, looking at a random point of the floor's near half or the tetrahedron. */
function randomCamera(r: Rng): Camera {
  const eye: [number, number, number] = [uniform(r, -0.8, 0.8), uniform(r, 0.15, 1.8), uniform(r, 0.6, 3)];
  const look: [number, number, number] = r() < 0.7 ? [uniform(r, -0.9, 0.9), 0, uniform(r, -0.9, 0.9)] : [0.5, uniform(r, 0.1, 0.6), 0.2];
  return { eye, look, up: [0, 1, 0], fov: uniform(r, 20, 70) };
}

console.log(`textured soak: ${frames} random frames, seed ${seed} (--seed ${seed} reruns it)`);
const t0 = performance.now();
let failures = 0;
let worstMean = 0;
let worstMax = 0;
for (let f = 0; f < frames; f++) {
  const scene = randomScene(rng);
  const camera = randomCamera(rng);
  const traversal = (['brute-force', 'bvh', 'bvh8'] as const)[rng.int(3)]!;
  const [width, height] = [32, 24];
  const materials = texturedMaterials();
  const spec = { kernel: 'textured', camera, width, height, scene, materials, traversal } as const;
  const r = await runGpu(buildFrame(spec), { sim: 'iss' });
  const expected = new TexturedReference({ scene, materials, lights: defaultLights(), sky: DEFAULT_SKY, ambient: DEFAULT_AMBIENT, camera, width, height, triangleEdges: true }).render('trilinear');
  const sums = [0, 0, 0];
  let max = 0;
  for (const p of r.pixels)
    for (let c = 0; c < 3; c++) {
      const e = Math.abs(toNumber(p.ret[c]!) - expected.rgb[3 * p.pixel + c]!);
      sums[c]! += e;
      if (expected.robust[p.pixel]) max = Math.max(max, e);
    }
  // Per channel, as docs/texture.md states them.
  const mean = Math.max(...sums) / (width * height);
  worstMean = Math.max(worstMean, mean);
  worstMax = Math.max(worstMax, max);
  if (r.faults.length > 0 || mean >= 1 / 1024 || max >= 3 / 255) {
    failures++;
    console.log(`frame ${f}: ${traversal}, eye ${camera.eye.map((x) => x.toFixed(3))}, look ${camera.look.map((x) => x.toFixed(3))}, fov ${camera.fov.toFixed(1)}: mean ${mean.toFixed(5)}, max ${max.toFixed(4)}, faults ${r.faults.length}`);
  }
}
console.log(`${frames} frames in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${failures} outside the tolerance (mean < 1/1024, max < 3/255); worst mean ${worstMean.toFixed(5)}, worst max ${worstMax.toFixed(4)}`);
process.exit(failures === 0 ? 0 : 1);
