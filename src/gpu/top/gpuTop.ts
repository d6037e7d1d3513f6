// The whole GPU (`rtgpu_top`): memory controller, command patcher, patch dispatcher, IC buffer, RT core
// tiles (core + instruction and constant memories), IC systems (core + triangle memory) and the
// unified main memory, behind the host interface (MMIO + DMA).
import { defineModule, lit, mux } from '../../hdl/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { CommandPatcher, PATCH_THREADS } from '../commandPatcher/commandPatcher.ts';
import { IcBuffer } from '../icBuffer/icBuffer.ts';
import { IcSystem, defaultIcSystemParams, triangleTestParam, type IcSystemParams } from '../icCore/icSystem.ts';
import { BvhIcSystem, defaultBvhIcSystemParams, type BvhIcSystemParams } from '../bvh/bvhIcSystem.ts';
import { MemoryController } from '../memoryController/memoryController.ts';
import { hostPorts } from '../memoryController/hostPorts.ts';
import { passThrough } from '../passThrough.ts';
import { triangleIdBits } from '../memory/triangleMemory.ts';
import { UnifiedMainMemory } from '../memory/unifiedMainMemory.ts';
import { PatchDispatcher, checkCoreCounts } from '../patchDispatcher/patchDispatcher.ts';
import { defaultRtCoreParams, type RtCoreParams } from '../rtCore/rtCore.ts';
import { RtCoreTile } from '../rtCore/rtCoreTile.ts';

/** Flat, so the module reads `GpuTop_icCores2_rtCores4_…` (the RTL names the default `rtgpu_top`). */
export interface GpuParams extends Pick<IcSystemParams, 'triangleTest'> {
  /** RT cores, 1 to 4. */
  readonly rtCores: number;
  /** Hardware contexts (threads resident at once) per RT core: 1, 2, 4, 8 or 16 (default 8: four cores hold a whole patch). */
  readonly contexts?: number;
  /** IC cores, 1 to 32. */
  readonly icCores: number;
  /** Capacity of each triangle memory: triangles and vertices. */
  readonly triangles: number;
  readonly vertices: number;
  /** 'bvh': the IC cores walk a BVH4 (BvhIcSystem, loaded with the BVH scene image); absent: every triangle (seed 004). */
  readonly traversal?: 'bvh';
  /** With 'bvh': ray slots per IC core, and the capacities of the node and TriRange memories. */
  readonly icRays?: number;
  readonly nodes?: number;
  readonly triRanges?: number;
}

export const defaultGpuParams: GpuParams = { rtCores: 4, icCores: 2, triangles: 512, vertices: 2048 };

/** The BVH configuration: the default cores, BVH IC systems at their default capacities (65,536 triangles). */
export const defaultBvhGpuParams: GpuParams = {
  rtCores: 4,
  icCores: 2,
  traversal: 'bvh',
  triangles: defaultBvhIcSystemParams.triangles,
  vertices: defaultBvhIcSystemParams.vertices,
  icRays: defaultBvhIcSystemParams.rays,
  nodes: defaultBvhIcSystemParams.nodes,
  triRanges: defaultBvhIcSystemParams.triRanges,
};

/** One IC system of the configuration: brute force (IcSystem) or BVH (BvhIcSystem); both have the ports the top uses. */
function icSystem(m: Parameters<Parameters<typeof defineModule>[2]>[0], p: GpuParams, k: number) {
  if (p.traversal === undefined) return { system: m.instance(IcSystem, { ...defaultIcSystemParams, triangles: p.triangles, vertices: p.vertices, ...triangleTestParam(p) }, { name: `ic_core${k}` }), nodeTests: lit(0, 32) };
  if (p.traversal !== 'bvh') throw new Error(`GpuTop: traversal must be 'bvh' or absent, got '${String(p.traversal)}'`);
  const d = defaultBvhIcSystemParams;
  const params: BvhIcSystemParams = { ...d, triangles: p.triangles, vertices: p.vertices, rays: p.icRays ?? d.rays, nodes: p.nodes ?? d.nodes, triRanges: p.triRanges ?? d.triRanges, ...triangleTestParam(p) };
  const system = m.instance(BvhIcSystem, params, { name: `ic_core${k}` });
  return { system, nodeTests: system.io.node_tests };
}

export const GPU_TOP_NAME = 'rtgpu_top';

export const GpuTop = defineModule('GpuTop', (_p: GpuParams) => hostPorts(), (m, io, p) => {
  checkCoreCounts(p, 'GpuTop');
  const rt = Array.from({ length: p.rtCores }, (_, c) => c);
  const ic = Array.from({ length: p.icCores }, (_, k) => k);
  const core: RtCoreParams = { ...defaultRtCoreParams, contexts: p.contexts ?? defaultRtCoreParams.contexts };
  const mc = m.instance(MemoryController, { rtCores: p.rtCores, icCores: p.icCores, triangleCountBits: triangleIdBits(p), contexts: core.contexts }, { name: 'memory_controller' });
  const cp = m.instance(CommandPatcher, {}, { name: 'command_patcher' });
  const bvh = p.traversal === 'bvh';
  // Rays in flight per IC core: its slots (icSystem above gives a brute-force core the default count).
  const icRays = bvh ? (p.icRays ?? defaultBvhIcSystemParams.rays) : defaultIcSystemParams.slots;
  const pd = m.instance(PatchDispatcher, { rtCores: p.rtCores, icCores: p.icCores, icRays }, { name: 'patch_dispatcher' });
  const buffer = m.instance(IcBuffer, { rtCores: p.rtCores, icCores: p.icCores, depth: PATCH_THREADS }, { name: 'ic_buffer' });
  const main = m.instance(UnifiedMainMemory, { ports: p.rtCores, threads: MEMORY_MAP.threads, threadWords: MEMORY_MAP.threadBytes / 4 }, { name: 'main_memory' });
  const tiles = rt.map((c) => m.instance(RtCoreTile, core, { name: `rt_core${c}` }));
  const icSystems = ic.map((k) => icSystem(m, p, k));
  const ics = icSystems.map((x) => x.system);

  // Host interface.
  passThrough(m, hostPorts(), io, mc.io);

  // Memory controller <-> command patcher.
  cp.io.start.set(mc.io.cp_start);
  cp.io.pixel_count.set(mc.io.pixel_count);
  cp.io.first_pixel.set(mc.io.first_pixel);
  cp.io.thread_written.set(mc.io.thread_written);
  cp.io.written_thread.set(mc.io.written_thread);
  cp.io.patch_written.set(mc.io.patch_written);
  mc.io.patch_start.set(cp.io.patch_start);
  mc.io.frame_done.set(cp.io.frame_done);

  // Command patcher -> patch dispatcher -> memory controller.
  pd.io.pixel_valid.set(cp.io.pixel_valid);
  pd.io.pixel_id.set(cp.io.pixel_id);
  pd.io.pixel_thread.set(cp.io.thread_id);
  m.connect(mc.io.thread_done, pd.io.thread_done);
  mc.io.instructions.set(pd.io.instructions);
  mc.io.traces.set(pd.io.traces);
  // A hardware fault: a queue overflowed, two cores named one thread's memory, or main memory missed an answer.
  mc.io.internal_error.set(buffer.io.error.or(pd.io.answer_overflow).or(main.io.conflict).or(tiles.map((t) => t.io.mem_error).reduce((a, b) => a.or(b))));

  // RT core tiles: loaded by the memory controller, driven by the dispatcher, on main memory port c.
  tiles.forEach((t, c) => {
    t.io.imem_load_start.set(mc.io.imem_load_start);
    t.io.cmem_load_start.set(mc.io.cmem_load_start);
    t.io.imem_we.set(mc.io.imem_we);
    t.io.imem_waddr.set(mc.io.mem_waddr.trunc(12));
    t.io.imem_wdata.set(mc.io.mem_wdata);
    t.io.cmem_we.set(mc.io.cmem_we);
    t.io.cmem_waddr.set(mc.io.mem_waddr);
    t.io.cmem_wdata.set(mc.io.mem_wdata);
    m.connect(t.io.launch, pd.io.launch.at(c));
    m.connect(pd.io.event.at(c), t.io.event);
    m.connect(pd.io.retire.at(c), t.io.retire);
    pd.io.core_issued.at(c).set(t.io.issued);
    pd.io.core_busy.at(c).set(t.io.busy);
    buffer.io.ray_origin_rt.at(c).set(t.io.event.bits.origin);
    buffer.io.ray_direction_rt.at(c).set(t.io.event.bits.direction);
    mc.io.core_busy.at(c).set(t.io.busy);
    mc.io.core_pc.at(c).set(pd.io.core_pc.at(c));
    mc.io.core_busy_cycles.at(c).set(pd.io.core_busy_cycles.at(c));
    mc.io.core_issue_cycles.at(c).set(pd.io.core_issue_cycles.at(c));
    t.io.status_context.set(mc.io.context_select);
    m.connect(mc.io.context_status.at(c), t.io.status);
    // The memory controller reads results through port 0 in cycles RT core 0 does not use it.
    const req = t.io.mem;
    const mcTurn = c === 0 ? mc.io.mem_read_en.and(req.read.or(req.write).not()) : lit(0, 1).asBool();
    if (c === 0) mc.io.mem_done.set(main.io.done.at(0).and(m.regNext(mcTurn, { reset: 0, name: 'mc_mem_turn' })));
    main.io.thread.at(c).set(mux(mcTurn, mc.io.mem_thread, req.thread));
    main.io.addr.at(c).set(mux(mcTurn, mc.io.mem_addr, req.addr.bits(15, 2)));
    main.io.read_en.at(c).set(mux(mcTurn, mc.io.mem_read_en, req.read));
    main.io.write_en.at(c).set(req.write.and(mcTurn.not()));
    main.io.s_or_v.at(c).set(req.vector.or(mcTurn));
    main.io.data_write.at(c).set(req.data);
    t.io.mem_resp.data.set(main.io.data_read.at(c));
    // A core looks at `done` only the cycle after its own request, so the controller's answers never reach it.
    t.io.mem_resp.done.set(main.io.done.at(c));
  });
  mc.io.mem_data_read.set(main.io.data_read.at(0));

  // The IC buffer's queues, steered by the dispatcher.
  buffer.io.q_en_rt2ic.set(pd.io.q_en_rt2ic);
  buffer.io.core_id_rt2ic.set(pd.io.core_id_rt2ic);
  buffer.io.dequeue_ic.set(pd.io.dequeue_ic);
  buffer.io.q_en_ic2rt.set(pd.io.q_en_ic2rt);
  buffer.io.core_id_ic2rt.set(pd.io.core_id_ic2rt);
  buffer.io.dequeue_rt.set(pd.io.dequeue_rt);
  buffer.io.clear_errors.set(false);
  pd.io.rt2ic_empty.set(buffer.io.rt2ic_empty);
  pd.io.ic2rt_empty.set(buffer.io.ic2rt_empty);
  pd.io.shader_info_rt.set(buffer.io.shader_info_rt);
  pd.io.shader_normal_rt.set(buffer.io.shader_normal_rt);

  // IC systems: loaded by the memory controller, rays from the buffer, answers to the dispatcher.
  ics.forEach((s, k) => {
    s.io.load_start.set(mc.io.tri_load_start);
    s.io.load_valid.set(mc.io.tri_load_valid);
    s.io.load_data.set(mc.io.mem_wdata);
    s.io.ray_start.set(pd.io.ray_start.at(k));
    s.io.ray_origin.set(buffer.io.ray_origin_ic);
    s.io.ray_direction.set(buffer.io.ray_direction_ic);
    s.io.ray_thread.set(pd.io.ray_thread);
    pd.io.ic_ready.at(k).set(s.io.ready);
    pd.io.ic_done.at(k).set(s.io.done);
    pd.io.ic_hit_info.at(k).set(s.io.hit_info);
    pd.io.ic_hit_normal.at(k).set(s.io.hit_normal);
    pd.io.ic_done_thread.at(k).set(s.io.done_thread);
    pd.io.ic_done_fault.at(k).set(s.io.done_fault);
    buffer.io.shader_info_ic.at(k).set(pd.io.answer_info.at(k));
    buffer.io.normal_ic.at(k).set(pd.io.answer_normal.at(k));
    mc.io.ic_rays.at(k).set(s.io.rays);
    mc.io.ic_tests.at(k).set(s.io.tests);
    mc.io.ic_busy_cycles.at(k).set(s.io.busy_cycles);
    mc.io.ic_node_tests.at(k).set(icSystems[k]!.nodeTests);
  });
  // Every IC core loads the same image: core 0 speaks for all.
  mc.io.tri_load_error.set(ics.map((s) => s.io.load_error).reduce((a, b) => a.or(b)));
  mc.io.triangle_count.set(ics[0]!.io.triangle_count);
});
