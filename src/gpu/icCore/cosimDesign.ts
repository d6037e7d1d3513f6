// The IC system (core + triangle memory) as a co-simulation design: a random scene loaded through the
// image port, then random rays back to back; the golden model rebuilds the scene from the loaded words
// and checks every answer against the caster (`rtgpu cosim ic_core`).
import { elaborate } from '../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../hdl/cosim/design.ts';
import type { Rng } from '../../hdl/cosim/rng.ts';
import { castRay, type Vec3 } from '../../golden/rayCaster.ts';
import { imageToScene, sceneToImage, triangleCount, type Scene } from '../../golden/scene.ts';
import { IcSystem, type IcSystemParams } from './icSystem.ts';
import { icRayCycles } from './rayRunner.ts';
import { randomIcScene, randomRay } from './rays.ts';

/** Small memories so that scenes load quickly; the latencies are the defaults. */
export const icCosimParams: IcSystemParams = { fadd: 3, fmul: 3, fdiv: 14, triangles: 32, vertices: 96 };

const split = (v: bigint, n: number): number[] => Array.from({ length: n }, (_, i) => Number((v >> BigInt(32 * i)) & 0xffffffffn));
const join = (w: readonly number[]): bigint => w.reduce((acc, x, i) => acc | (BigInt(x >>> 0) << BigInt(32 * i)), 0n);

/**
 * The plan of inputs, built from the run's random generator on the first cycle: reset, a scene, and
 * rays spaced by their documented duration (a ray started early would be ignored, not lost: the golden
 * model follows `ready`).
 */
function planner() {
  let rows: Record<string, bigint>[] = [];
  let scene: Scene | undefined;
  return (cycle: number, rng: Rng): Record<string, bigint> => {
    if (cycle === 0) {
      rows = [{ rst_n: 0n }, { rst_n: 0n }];
      scene = randomIcScene(rng, rng.int(3) === 0 ? 0 : 1 + rng.int(icCosimParams.triangles));
      const image = sceneToImage(scene);
      rows.push({ load_start: 1n });
      for (const w of image) rows.push({ load_valid: 1n, load_data: BigInt(w) });
      rows.push({});
    }
    while (rows.length <= cycle) {
      const r = randomRay(rng, scene!);
      const valid = [...r.origin, ...r.direction].every((x) => ((x >>> 23) & 0xff) !== 0xff) && !r.direction.every((x) => (x & 0x7fffffff) === 0);
      rows.push({ ray_start: 1n, ray_origin: join(r.origin), ray_direction: join(r.direction), ray_thread: BigInt(rng.int(32)) });
      // Sometimes a little late, sometimes a start while still busy (ignored by the core).
      const gap = icRayCycles(icCosimParams, triangleCount(scene!), valid) + (rng.int(4) === 0 ? rng.int(5) - 2 : 0);
      for (let i = 0; i < gap; i++) rows.push(rng.int(50) === 0 ? { ray_start: 1n, ray_origin: join(r.direction), ray_direction: join(r.origin) } : {});
    }
    return { rst_n: cycle < 2 ? 0n : 1n, load_start: 0n, load_valid: 0n, load_data: 0n, ray_start: 0n, ray_origin: 0n, ray_direction: 0n, ray_thread: 0n, ...rows[cycle] };
  };
}

function golden(): GoldenModel {
  let words: number[] = [];
  let scene: Scene = { vertices: new Uint32Array(0), triangles: new Uint32Array(0) };
  let pending: { origin: Vec3; direction: Vec3; thread: number } | null = null;
  const hex = (w: readonly number[]) => w.map((x) => (x >>> 0).toString(16).padStart(8, '0')).join(' ');
  return {
    check(_cycle, ins, outs) {
      let msg: string | null = null;
      if (outs.done === 1n) {
        if (!pending) msg = 'done without a ray in flight';
        else {
          const want = castRay(scene, pending.origin, pending.direction);
          const hit = split(outs.hit_info!, 4);
          const normal = [...split(outs.hit_normal!, 3), 0];
          if (hex(hit) !== hex(want.hit) || hex(normal) !== hex(want.normal) || Number(outs.done_thread) !== pending.thread)
            msg = `ray ${hex(pending.origin)} / ${hex(pending.direction)}: hit ${hex(hit)} normal ${hex(normal)} thread ${outs.done_thread}; caster ${hex(want.hit)} / ${hex(want.normal)} thread ${pending.thread}`;
          pending = null;
        }
      }
      if (ins.rst_n === 0n) pending = null;
      else if (ins.ray_start === 1n && outs.ready === 1n) {
        if (pending) msg ??= 'a ray was accepted while another was in flight';
        pending = { origin: split(ins.ray_origin!, 3) as unknown as Vec3, direction: split(ins.ray_direction!, 3) as unknown as Vec3, thread: Number(ins.ray_thread) };
      }
      if (ins.load_start === 1n) words = [];
      if (ins.load_valid === 1n) {
        words.push(Number(ins.load_data));
        // The image is complete once its closing four zero words after the vertices arrive.
        try {
          scene = imageToScene(Uint32Array.from(words));
        } catch {
          // not a whole image yet
        }
      }
      return msg;
    },
  };
}

export const icCoreCosimDesign: CosimDesign = {
  name: 'ic_core',
  description: 'IC core + triangle memory: a random scene through the image port, then random rays (golden: the ray caster)',
  elaborate: () => elaborate(IcSystem, icCosimParams).design,
  stimulus: planner(),
  golden,
};
