// Triangle memory tests: scene images loaded and read back, latency, reload, load errors, RTL lint, co-simulation.
import { describe, expect, test } from 'vitest';
import { elaborate } from '../../src/hdl/index.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { formatMismatch, runCosim } from '../../src/hdl/cosim/runCosim.ts';
import { icarusCompile, verilatorLint } from '../../src/hdl/cosim/rtlChecks.ts';
import { seedFromEnv } from '../../src/util/seededRandom.ts';
import { TRIANGLE_MEMORY_LATENCY, TriangleMemory, defaultTriangleMemoryParams, type TriangleMemoryParams } from '../../src/gpu/memory/triangleMemory.ts';
import { triangleMemoryCosimDesign } from '../../src/gpu/memory/verification/triangleMemoryCosim.ts';
import { fromNumber } from '../../src/golden/float32.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { parseObj, sceneToImage, triangleCount, type Scene } from '../../src/golden/scene.ts';

const seed = seedFromEnv();
console.log(`triangleMemory.test seed=${seed} (rerun with SEED=${seed})`);

/** A tetrahedron: four triangles sharing four vertices, shader ids 1 to 4. */
const tetrahedron: Scene = {
  vertices: Uint32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1].map((x, i) => fromNumber(x * (1 + i / 8) - 0.25))),
  triangles: Uint32Array.from([0, 1, 2, 1, 0, 1, 3, 2, 0, 2, 3, 3, 1, 3, 2, 4]),
};

/** A quad from OBJ text, two materials: the reload scene. */
const quad = parseObj('v -1 -1 5\nv 1 -1 5\nv 1 1 5\nv -1 1 5.5\nusemtl a\nf 1 2 3\nusemtl b\nf 1 3 4\n', 'quad.obj');

interface Triangle {
  readonly vertices: readonly (readonly number[])[];
  readonly shader: number;
}

/** Triangle t of a scene, from the scene's own arrays. */
function sceneTriangle(scene: Scene, t: number): Triangle {
  const vertices = [0, 1, 2].map((k) => {
    const v = scene.triangles[4 * t + k]!;
    return [0, 1, 2].map((axis) => scene.vertices[3 * v + axis]!);
  });
  return { vertices, shader: scene.triangles[4 * t + 3]! };
}

type Response = { readonly notValid: boolean; readonly triangle: Triangle };

function readResponse(sim: Simulator): Response {
  const vertices = ['read_resp_v0', 'read_resp_v1', 'read_resp_v2'].map((port) => {
    const w = sim.peek(port);
    return [0n, 32n, 64n].map((s) => Number((w >> s) & 0xffffffffn));
  });
  return { notValid: sim.peek('read_resp_not_valid') === 1n, triangle: { vertices, shader: Number(sim.peek('read_resp_shader')) } };
}

function newMemory(p: TriangleMemoryParams): Simulator {
  const sim = compileSimulator(elaborate(TriangleMemory, p).design);
  sim.reset(2);
  return sim;
}

/** Streams an image with load_start on the first word; `gapEvery` inserts an idle cycle now and then. */
function loadImage(sim: Simulator, words: Uint32Array, gapEvery = 0): void {
  sim.poke('load_start', 1);
  words.forEach((w, i) => {
    if (gapEvery && i % gapEvery === gapEvery - 1) {
      sim.poke('load_valid', 0);
      sim.step();
      sim.poke('load_start', 0);
    }
    sim.poke('load_valid', 1);
    sim.poke('load_data', w);
    sim.step();
    sim.poke('load_start', 0);
  });
  sim.poke('load_valid', 0);
  sim.poke('load_start', 0);
}

/** Requests `ids` on consecutive cycles and returns one response per request, collected as they come. */
function readBackToBack(sim: Simulator, ids: readonly number[]): Response[] {
  const out: Response[] = [];
  for (let c = 0; c < ids.length + TRIANGLE_MEMORY_LATENCY; c++) {
    sim.poke('read_req_valid', c < ids.length ? 1 : 0);
    sim.poke('read_req_id', c < ids.length ? ids[c]! : 0);
    if (sim.peek('read_resp_valid') === 1n) out.push(readResponse(sim));
    sim.step();
  }
  sim.poke('read_req_valid', 0);
  expect(sim.peek('read_resp_valid')).toBe(0n);
  return out;
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const zeroTriangle: Triangle = { vertices: [[0, 0, 0], [0, 0, 0], [0, 0, 0]], shader: 0 };

function expectScene(sim: Simulator, scene: Scene): void {
  const n = triangleCount(scene);
  expect(sim.peek('load_triangle_count')).toBe(BigInt(n));
  expect(sim.peek('load_error')).toBe(0n);
  const got = readBackToBack(sim, range(n));
  expect(got).toEqual(range(n).map((t) => ({ notValid: false, triangle: sceneTriangle(scene, t) })));
}

describe('triangle memory on the TS simulator', () => {
  test('a tetrahedron with shared vertices reads back triangle by triangle', () => {
    const sim = newMemory(defaultTriangleMemoryParams);
    loadImage(sim, sceneToImage(tetrahedron));
    expectScene(sim, tetrahedron);
    // Triangle 3 by hand: vertices 1, 3, 2 (coordinate i of the list is x * (1 + i / 8) - 0.25), shader 4.
    const byHand = [[1.125, -0.25, -0.25], [-0.25, -0.25, 2.125], [-0.25, 1.625, -0.25]].map((v) => v.map(fromNumber));
    expect(readBackToBack(sim, [3])).toEqual([{ notValid: false, triangle: { vertices: byHand, shader: 4 } }]);
  });

  test('a shader word with a mask and a side answers the shader id alone (docs/rays.md: bits [15:0])', () => {
    const sim = newMemory(defaultTriangleMemoryParams);
    const masked: Scene = { ...tetrahedron, masks: Uint8Array.of(0xff, 0x01, 0x80, 0x3c), oneSided: Uint8Array.of(0, 1, 0, 1) };
    const image = sceneToImage(masked);
    expect(image[4 * 1 + 3]).toBe((2 | (0xfe << 16) | (1 << 24)) >>> 0);
    loadImage(sim, image);
    expectScene(sim, tetrahedron);
  });

  test('the default scene loads with idle cycles in the stream, and the first word may come with load_start', () => {
    const sim = newMemory(defaultTriangleMemoryParams);
    const scene = defaultScene();
    loadImage(sim, sceneToImage(scene), 7);
    expectScene(sim, scene);
  });

  test('ids at and past the triangle count answer not_valid with zero data', () => {
    const sim = newMemory({ triangles: 8, vertices: 16 });
    loadImage(sim, sceneToImage(tetrahedron));
    const got = readBackToBack(sim, [4, 3, 5, 8, 15, 0]);
    expect(got.map((r) => r.notValid)).toEqual([true, false, true, true, true, false]);
    for (const r of got.filter((x) => x.notValid)) expect(r.triangle).toEqual(zeroTriangle);
    expect(got[1]!.triangle).toEqual(sceneTriangle(tetrahedron, 3));
  });

  test(`the answer comes exactly ${TRIANGLE_MEMORY_LATENCY} cycles after the request, and only then`, () => {
    expect(TRIANGLE_MEMORY_LATENCY).toBe(2);
    const sim = newMemory(defaultTriangleMemoryParams);
    loadImage(sim, sceneToImage(tetrahedron));
    sim.poke('read_req_valid', 1);
    sim.poke('read_req_id', 1);
    sim.step();
    sim.poke('read_req_valid', 0);
    sim.poke('read_req_id', 3);
    const valid: bigint[] = [];
    for (let c = 1; c <= 4; c++) {
      valid.push(sim.peek('read_resp_valid'));
      if (c === TRIANGLE_MEMORY_LATENCY) expect(readResponse(sim)).toEqual({ notValid: false, triangle: sceneTriangle(tetrahedron, 1) });
      else expect(readResponse(sim).triangle).toEqual(zeroTriangle);
      sim.step();
    }
    expect(valid).toEqual([0n, 1n, 0n, 0n]);
  });

  test('one triangle per cycle back to back, in any order, with repeats', () => {
    const sim = newMemory(defaultTriangleMemoryParams);
    const scene = defaultScene();
    loadImage(sim, sceneToImage(scene));
    const ids = [35, 0, 0, 17, 36, 1, 34, 2, 2, 9];
    const got = readBackToBack(sim, ids);
    expect(got).toEqual(ids.map((t) => (t < 36 ? { notValid: false, triangle: sceneTriangle(scene, t) } : { notValid: true, triangle: zeroTriangle })));
  });

  test('a reload forgets the old scene', () => {
    const sim = newMemory(defaultTriangleMemoryParams);
    loadImage(sim, sceneToImage(defaultScene()));
    loadImage(sim, sceneToImage(quad));
    expectScene(sim, quad);
    expect(sceneTriangle(quad, 1)).toEqual({ vertices: [[-1, -1, 5], [1, 1, 5], [-1, 1, 5.5]].map((v) => v.map(fromNumber)), shader: 2 });
    expect(readBackToBack(sim, [2]).map((r) => r.notValid)).toEqual([true]);
    // load_start alone empties the table at once.
    sim.poke('load_start', 1);
    sim.step();
    sim.poke('load_start', 0);
    expect(sim.peek('load_triangle_count')).toBe(0n);
    expect(readBackToBack(sim, [0]).map((r) => r.notValid)).toEqual([true]);
  });

  test('a scene that exactly fills both capacities loads without error', () => {
    const p = { triangles: 4, vertices: 4 };
    const sim = newMemory(p);
    loadImage(sim, sceneToImage(tetrahedron));
    expectScene(sim, tetrahedron);
  });

  describe('load errors are sticky, stop the load, and clear on load_start', () => {
    const small = { triangles: 3, vertices: 8 };
    const cases: [string, Uint32Array, number][] = [
      ['one triangle too many', sceneToImage(tetrahedron), 3],
      ['one vertex too many', sceneToImage({ vertices: new Uint32Array(3 * 9).fill(fromNumber(2)), triangles: Uint32Array.from([0, 1, 7, 1]) }), 1],
      ['a vertex index past the banks', Uint32Array.from([0, 1, 2, 7, 0, 8, 1, 5, 0, 0, 0, 0]), 1],
      ['a word after the terminator record past the banks', Uint32Array.from([...sceneToImage({ vertices: new Uint32Array(3 * 8), triangles: new Uint32Array(0) }), 0, 0, 0, 0, 9]), 0],
    ];
    for (const [name, image, count] of cases) {
      test(name, () => {
        const sim = newMemory(small);
        loadImage(sim, image);
        expect(sim.peek('load_error')).toBe(1n);
        expect(sim.peek('load_triangle_count')).toBe(BigInt(count));
        // Further words are ignored: the count does not move and the error stays.
        loadWordsWithoutStart(sim, [0, 0, 0, 0]);
        expect([sim.peek('load_error'), sim.peek('load_triangle_count')]).toEqual([1n, BigInt(count)]);
        loadImage(sim, sceneToImage(quad));
        expect(sim.peek('load_error')).toBe(0n);
        expectScene(sim, quad);
      });
    }
  });

  test('a vertex index inside the banks but past the vertices loaded is accepted (it reads what the bank holds)', () => {
    const sim = newMemory({ triangles: 4, vertices: 8 });
    loadImage(sim, sceneToImage({ vertices: Uint32Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9]), triangles: Uint32Array.from([0, 1, 2, 1]) }));
    loadImage(sim, Uint32Array.from([2, 0, 1, 5, 0, 0, 0, 0, 10, 11, 12, 0, 0, 0, 0, 0]));
    expect(sim.peek('load_error')).toBe(0n);
    expect(readBackToBack(sim, [0])[0]!.triangle).toEqual({ vertices: [[7, 8, 9], [10, 11, 12], [0, 0, 0]], shader: 5 });
  });

  test('4096 triangles and 16384 vertices: elaborates, loads and reads every triangle back', () => {
    const p = { triangles: 4096, vertices: 16384 };
    const vertices = Uint32Array.from(range(3 * p.vertices), (i) => fromNumber(i / 3 - 100));
    const triangles = Uint32Array.from(range(p.triangles).flatMap((t) => [(4 * t) % p.vertices, (4 * t + 16383) % p.vertices, (7 * t + 1) % p.vertices, 1 + (t % 300)]));
    const scene: Scene = { vertices, triangles };
    const sim = newMemory(p);
    const words = sceneToImage(scene);
    const load = sim.port('load_data');
    sim.poke('load_start', 1);
    sim.poke('load_valid', 1);
    for (const w of words) {
      load.set(w);
      sim.step();
      sim.poke('load_start', 0);
    }
    sim.poke('load_valid', 0);
    expect([sim.peek('load_error'), sim.peek('load_triangle_count')]).toEqual([0n, 4096n]);
    const ids = [...range(p.triangles), 4096, 8191];
    const got = readBackToBack(sim, ids);
    expect(got.length).toBe(ids.length);
    const wrong = got.findIndex((r, i) => (i < 4096 ? r.notValid || JSON.stringify(r.triangle) !== JSON.stringify(sceneTriangle(scene, i)) : !r.notValid));
    expect(wrong).toBe(-1);
  }, 120_000);
});

function loadWordsWithoutStart(sim: Simulator, words: readonly number[]): void {
  for (const w of words) {
    sim.poke('load_valid', 1);
    sim.poke('load_data', w);
    sim.step();
  }
  sim.poke('load_valid', 0);
}

describe('triangle memory RTL', () => {
  for (const p of [defaultTriangleMemoryParams, { triangles: 24, vertices: 40 }, { triangles: 4096, vertices: 16384 }]) {
    test(`lints clean with ${p.triangles} triangles, ${p.vertices} vertices`, async () => {
      const design = elaborate(TriangleMemory, p).design;
      const e = emitSystemVerilog(design);
      const src = { top: design.top, files: e.files, fileList: e.fileList };
      for (const r of [await verilatorLint(src), await icarusCompile(src)]) expect(r.output, `${r.tool} on ${design.top}`).toBe('');
    }, 60_000);
  }

  test('co-simulation on TS, Verilator and Icarus with the golden model (20,000 cycles)', async () => {
    const r = await runCosim(triangleMemoryCosimDesign, { cycles: 20_000, seed, sims: ['ts', 'verilator', 'icarus'] });
    expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
    expect(r.golden).toBeNull();
  }, 300_000);
});
