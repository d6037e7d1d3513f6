// One IC core with its own triangle memory (seed 9.5): the unit the golden caster checks, loaded through the memory controller's image port.
import { triangleTestParam, type TriangleTestOption } from './watertightTest.ts';
import { defineModule, input, lit, mux, output, type InstanceHandle, type ModuleBuilder, type PortsValue, type ValueOf } from '../../hdl/index.ts';
import { TRIANGLE_MEMORY_LATENCY, TriangleMemory, triangleIdBits } from '../memory/triangleMemory.ts';
import { IcCore, defaultIcCoreParams, rayPorts, type TriangleRead } from './icCore.ts';
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
  for (const k of ['ready', 'done', 'hit_info', 'hit_normal', 'done_thread', 'done_fault'] as const) link[k].set(core[k] as never);
}

type TriangleMemoryIo = InstanceHandle<ReturnType<(typeof TriangleMemory)['ports']>>['io'];

/** The triangle memory's answer into a core's triangle port (the request side is each system's: the id widths differ). */
export function connectTriangleAnswers(tri: ValueOf<ReturnType<typeof TriangleRead>>, mem: TriangleMemoryIo): void {
  for (const k of ['resp_valid', 'resp_not_valid', 'resp_v0', 'resp_v1', 'resp_v2', 'resp_shader'] as const) tri[k].set(mem[k] as never);
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
    // The core counts ids in 16 bits; an id the memory cannot represent is past the last triangle.
    const tw = triangleIdBits(p);
    const id = core.io.tri.req_id;
    mem.io.req_valid.set(core.io.tri.req_valid);
    mem.io.req_id.set(tw >= 16 ? id.zext(tw) : mux(id.bits(15, tw).orR(), lit(2 ** tw - 1, tw), id.trunc(tw)));
    connectTriangleAnswers(core.io.tri, mem.io);
  },
);

export { triangleTestParam, type TriangleTestKind } from './watertightTest.ts';
