// The IC system (core + triangle memory) as a co-simulation design: a random scene loaded through the
// image port, then random rays whenever the core takes them (two in flight); the golden model rebuilds
// the scene from the loaded words and checks every answer against the caster (`rtgpu cosim ic_core`).
import { elaborate } from '../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../hdl/cosim/design.ts';
import type { Rng } from '../../hdl/cosim/rng.ts';
import { castRay, type Vec3 } from '../../golden/rayCaster.ts';
import { imageToScene, sceneToImage, type Scene } from '../../golden/scene.ts';
import { IcSystem, type IcSystemParams } from './icSystem.ts';
import { randomIcScene, randomRay } from './rays.ts';
import { packWords, unpackWords } from '../words.ts';

/** Small memories so that scenes load quickly; the latencies are the defaults. */
export const icCosimParams: IcSystemParams = { fadd: 3, fmul: 3, fdiv: 14, triangles: 32, vertices: 96 };


/**
 * The plan of inputs, built from the run's random generator on the first cycle: reset, a scene, then a
 * random ray offered most cycles (the core takes one whenever `ready`; the golden model follows it).
 */
function planner() {
  let rows: Record<string, bigint>[] = [];
  let scene: Scene | undefined;
  return (cycle: number, rng: Rng): Record<string, bigint> => {
    if (cycle === 0) {
      rows = [{ rst_n: 0n }, { rst_n: 0n }];
      scene = randomIcScene(rng, rng.int(3) === 0 ? 0 : 1 + rng.int(icCosimParams.triangles));
      rows.push({ load_start: 1n });
      for (const w of sceneToImage(scene)) rows.push({ load_valid: 1n, load_data: BigInt(w) });
      rows.push({});
    }
    while (rows.length <= cycle) {
      const r = randomRay(rng, scene!);
      rows.push(rng.int(3) === 0 ? {} : { ray_start: 1n, ray_origin: packWords(r.origin), ray_direction: packWords(r.direction), ray_thread: BigInt(rng.int(32)) });
    }
    return { rst_n: cycle < 2 ? 0n : 1n, load_start: 0n, load_valid: 0n, load_data: 0n, ray_start: 0n, ray_origin: 0n, ray_direction: 0n, ray_thread: 0n, ...rows[cycle] };
  };
}

function golden(): GoldenModel {
  let words: number[] = [];
  let scene: Scene = { vertices: new Uint32Array(0), triangles: new Uint32Array(0) };
  // Accepted rays in order: answers come back in the order the rays went in.
  let pending: { origin: Vec3; direction: Vec3; thread: number }[] = [];
  const hex = (w: readonly number[]) => w.map((x) => (x >>> 0).toString(16).padStart(8, '0')).join(' ');
  return {
    check(_cycle, ins, outs) {
      let msg: string | null = null;
      if (outs.done === 1n) {
        const ray = pending.shift();
        if (!ray) msg = 'done without a ray in flight';
        else {
          const want = castRay(scene, ray.origin, ray.direction);
          const hit = unpackWords(outs.hit_info!, 4);
          const normal = [...unpackWords(outs.hit_normal!, 3), 0];
          if (hex(hit) !== hex(want.hit) || hex(normal) !== hex(want.normal) || Number(outs.done_thread) !== ray.thread)
            msg = `ray ${hex(ray.origin)} / ${hex(ray.direction)}: hit ${hex(hit)} normal ${hex(normal)} thread ${outs.done_thread}; caster ${hex(want.hit)} / ${hex(want.normal)} thread ${ray.thread}`;
        }
      }
      if (ins.rst_n === 0n) pending = [];
      else if (ins.ray_start === 1n && outs.ready === 1n) {
        if (pending.length >= 2) msg ??= 'a third ray was accepted while two were in flight';
        pending.push({ origin: unpackWords(ins.ray_origin!, 3) as unknown as Vec3, direction: unpackWords(ins.ray_direction!, 3) as unknown as Vec3, thread: Number(ins.ray_thread) });
      }
      if (ins.load_start === 1n) words = [];
      if (ins.load_valid === 1n) {
        words.push(Number(ins.load_data));
        // Every prefix that parses is a scene; the whole image, the last one, is what the rays see.
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
