// One IC core with its own triangle memory (seed 9.5): the unit the golden caster checks, loaded through the memory controller's image port.
import { triangleTestParam, type TriangleTestOption } from './watertightTest.ts';
import { defineModule, input, lit, mux, output, type ModuleBuilder, type PortsValue } from '../../hdl/index.ts';
import { TRIANGLE_MEMORY_LATENCY, TriangleMemory, triangleIdBits } from '../memory/triangleMemory.ts';
import { IcCore, defaultIcCoreParams, rayPorts } from './icCore.ts';
import { passThrough } from '../passThrough.ts';
import { IcCoreLink } from './icCoreLink.ts';
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

/** The ray data and counters of the core's rayPorts, which a system passes straight through. */
const rayDataPorts = () => {
  const { ray_origin, ray_direction, ray_thread, rays, tests, busy_cycles } = rayPorts();
  return { ray_origin, ray_direction, ray_thread, rays, tests, busy_cycles };
};

/** An IC system's side toward the dispatcher and the host: the dispatcher's link (SV ports dispatch_ray_start … dispatch_done_fault), the ray's data, the counters. */
export const systemRayPorts = () => ({
  dispatch: output(IcCoreLink),
  ...rayDataPorts(),
});

type CoreRayIo = PortsValue<ReturnType<typeof rayPorts>>;

/** A system's ray ports to its core's: the core's flat ray ports are its side of the link. */
export function connectCoreRays(m: ModuleBuilder, io: PortsValue<ReturnType<typeof systemRayPorts>>, core: CoreRayIo): void {
  passThrough(m, rayDataPorts(), io, core);
  const link = io.dispatch;
  core.ray_start.set(link.ray_start);
  link.ready.set(core.ready);
  link.done.set(core.done);
  link.hit_info.set(core.hit_info);
  link.hit_normal.set(core.hit_normal);
  link.done_thread.set(core.done_thread);
  link.done_fault.set(core.done_fault);
}

export const IcSystem = defineModule(
  'IcSystem',
  (p: IcSystemParams) => ({
    ...sceneLoadPorts(p),
    ...systemRayPorts(),
  }),
  (m, io, p) => {
    const core = m.instance(IcCore, { fadd: p.fadd, fmul: p.fmul, fdiv: p.fdiv, memory: TRIANGLE_MEMORY_LATENCY, slots: p.slots, ...triangleTestParam(p) }, { name: 'core' });
    const mem = m.instance(TriangleMemory, { triangles: p.triangles, vertices: p.vertices }, { name: 'triangles' });
    m.connect(mem.io.load, io.load);
    connectCoreRays(m, io, core.io);
    // The core counts ids in 16 bits, the memory in tw: the request is adapted (an id the memory cannot
    // represent is past the last triangle), the answer connects as it is.
    const tw = triangleIdBits(p);
    const { req, resp } = core.io.tri;
    mem.io.read.req.valid.set(req.valid);
    mem.io.read.req.id.set(tw >= 16 ? req.id.zext(tw) : mux(req.id.bits(15, tw).orR(), lit(2 ** tw - 1, tw), req.id.trunc(tw)));
    m.connect(resp, mem.io.read.resp);
  },
);

export { triangleTestParam, type TriangleTestKind } from './watertightTest.ts';
