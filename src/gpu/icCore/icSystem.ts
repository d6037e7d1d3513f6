// One IC core with its own triangle memory (seed 9.5): the unit the golden caster checks, loaded through the memory controller's image port.
import { triangleTestParam, type TriangleTestOption } from './watertightIntersection.ts';
import { defineModule, input, lit, mux } from '../../hdl/index.ts';
import { TRIANGLE_MEMORY_LATENCY, TriangleMemory, triangleIdBits } from '../memory/triangleMemory.ts';
import { IcCore, defaultIcCoreParams, rayPorts } from './icCore.ts';
import { passThrough } from '../passThrough.ts';
import { SceneLoad } from '../memory/sceneLoad.ts';
import { gpuFloatLatencies } from '../floatLatencies.ts';

/** Flat, so module names read `IcSystem_fadd3_…_slots3_triangles512_vertices2048` (a hash with the watertight option: the name gets too long). */
export interface IcSystemParams extends TriangleTestOption {
  readonly fadd: number;
  readonly fmul: number;
  readonly fdiv: number;
  /** The core's ray slots (IcCoreParams.slots). */
  readonly slots: number;
  readonly triangles: number;
  readonly vertices: number;
}

/** `slots` is also the rays the patch dispatcher lets one brute-force core hold (its default `icRays`). */
export const defaultIcSystemParams: IcSystemParams = { fadd: gpuFloatLatencies.fadd, fmul: gpuFloatLatencies.fmul, fdiv: gpuFloatLatencies.fdiv, slots: defaultIcCoreParams.slots, triangles: 512, vertices: 2048 };

/** An IC system's load side: the scene image streamed in by the memory controller, and what the triangle memory says of it. */
export const sceneLoadPorts = (p: Pick<IcSystemParams, 'triangles' | 'vertices'>) => ({
  /** SV ports load_start, load_valid, load_data, load_error, load_triangle_count. */
  load: input(SceneLoad(triangleIdBits(p))),
});

export const IcSystem = defineModule(
  'IcSystem',
  (p: IcSystemParams) => ({
    ...sceneLoadPorts(p),
    ...rayPorts(),
  }),
  (m, io, p) => {
    const core = m.instance(IcCore, { fadd: p.fadd, fmul: p.fmul, fdiv: p.fdiv, memory: TRIANGLE_MEMORY_LATENCY, slots: p.slots, ...triangleTestParam(p) }, { name: 'core' });
    const mem = m.instance(TriangleMemory, { triangles: p.triangles, vertices: p.vertices }, { name: 'triangles' });
    m.connect(mem.io.load, io.load);
    passThrough(m, rayPorts(), io, core.io);
    // The core counts ids in 16 bits, the memory in tw: the request is adapted (an id the memory cannot
    // represent is past the last triangle), the answer connects as it is.
    const tw = triangleIdBits(p);
    const { req, resp } = core.io.tri;
    mem.io.read.req.valid.set(req.valid);
    mem.io.read.req.id.set(tw >= 16 ? req.id.zext(tw) : mux(req.id.bits(15, tw).orR(), lit(2 ** tw - 1, tw), req.id.trunc(tw)));
    m.connect(resp, mem.io.read.resp);
  },
);

export { triangleTestParam, type TriangleTestKind } from './watertightIntersection.ts';
