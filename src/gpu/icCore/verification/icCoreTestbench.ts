// Drives one IC core in the TS simulator with a triangle memory modelled in TypeScript (answers each
// request after the memory latency), so rays can be checked against the golden caster.
import { elaborate, type Design } from '../../../hdl/index.ts';
import { compileSimulator, type Simulator } from '../../../hdl/sim/index.ts';
import { triangleCount, triangleMask, triangleOneSided, type Scene } from '../../../golden/scene.ts';
import { DEFAULT_RAY_QUERY, type RayQuery } from '../../../golden/rayQuery.ts';
import { queryWords } from './rayVectors.ts';
import { triangleVertex, type Vec3 } from '../../../golden/rayCaster.ts';
import { IcCore, defaultIcCoreParams, type IcCoreParams } from '../icCore.ts';
import { packWords, unpackWords } from '../../verification/portWords.ts';

export interface IcAnswer {
  /** hit x, y, z, shader id (all zero on a miss). */
  readonly hit: [number, number, number, number];
  /** RV15: normal x, y, z and the hit triangle's index (all 0 on a miss). */
  readonly normal: [number, number, number, number];
  /** Cycles from the ray's start to `done`. */
  readonly cycles: number;
}


export class IcCoreBench {
  readonly design: Design;
  readonly sim: Simulator;

  constructor(readonly params: IcCoreParams = defaultIcCoreParams) {
    this.design = elaborate(IcCore, params).design;
    this.sim = compileSimulator(this.design);
    this.sim.reset();
  }

  /** Cast one ray over the scene; throws if the core does not answer within `limit` cycles. */
  trace(scene: Scene, origin: Vec3, direction: Vec3, limit = 100_000, query: RayQuery = DEFAULT_RAY_QUERY): IcAnswer {
    const s = this.sim;
    const pending: { at: number; id: number }[] = [];
    const n = triangleCount(scene);
    s.poke('ray_origin', packWords(origin));
    s.poke('ray_direction', packWords(direction));
    s.poke('ray_thread', 0);
    s.poke('ray_query', packWords(queryWords(query)));
    s.poke('dispatch_ray_start', 1);
    for (let cycle = 0; cycle < limit; cycle++) {
      const due = pending[0]?.at === cycle ? pending.shift() : undefined;
      const ok = due !== undefined && due.id < n;
      s.poke('tri_resp_valid', due ? 1 : 0);
      s.poke('tri_resp_not_valid', due && !ok ? 1 : 0);
      for (const k of [0, 1, 2]) s.poke(`tri_resp_v${k}`, ok ? packWords(triangleVertex(scene, due.id, k)) : 0n);
      s.poke('tri_resp_shader', ok ? scene.triangles[4 * due.id + 3]! : 0);
      s.poke('tri_resp_mask', ok ? triangleMask(scene, due.id) : 0);
      s.poke('tri_resp_one_sided', ok && triangleOneSided(scene, due.id) ? 1 : 0);
      if (s.peek('dispatch_done') === 1n) {
        const answer: IcAnswer = { hit: unpackWords(s.peek('dispatch_hit_info'), 4) as IcAnswer['hit'], normal: unpackWords(s.peek('dispatch_hit_normal'), 4) as IcAnswer['normal'], cycles: cycle };
        s.step();
        s.poke('dispatch_ray_start', 0);
        return answer;
      }
      if (s.peek('tri_req_valid') === 1n) pending.push({ at: cycle + this.params.memory, id: Number(s.peek('tri_req_id')) });
      s.step();
      s.poke('dispatch_ray_start', 0);
    }
    throw new Error(`the IC core did not answer within ${limit} cycles`);
  }
}
