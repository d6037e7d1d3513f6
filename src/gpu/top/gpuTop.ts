// The whole GPU (`rtgpu_top`): memory controller, command patcher, patch dispatcher, IC buffer, RT core
// tiles (core + instruction and constant memories), IC systems (core + triangle memory), the unified
// main memory and optionally a texture unit, behind the host interface (MMIO + DMA).
import { defineModule, lit, mux, type ModuleBuilder, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { CommandPatcher, PATCH_THREADS } from '../commandPatcher/commandPatcher.ts';
import { IcBuffer } from '../icBuffer/icBuffer.ts';
import { IcSystem, defaultIcSystemParams, triangleTestParam, type IcSystemParams } from '../icCore/icSystem.ts';
import { BvhIcSystem, defaultBvhIcSystemParams, type BvhIcSystemParams } from '../bvh/bvhIcSystem.ts';
import { Bvh8IcSystem, defaultBvh8IcSystemParams } from '../bvh8/bvh8IcSystem.ts';
import { MemoryController } from '../memoryController/memoryController.ts';
import { hostPorts } from '../memoryController/hostPorts.ts';
import { passThrough } from '../passThrough.ts';
import { triangleIdBits } from '../memory/triangleMemory.ts';
import { UnifiedMainMemory } from '../memory/unifiedMainMemory.ts';
import { MainMemoryPort } from '../memory/mainMemoryPort.ts';
import { PatchDispatcher, checkCoreCounts } from '../patchDispatcher/patchDispatcher.ts';
import { defaultRtCoreParams, type RtCoreParams } from '../rtCore/rtCore.ts';
import { RtCoreTile } from '../rtCore/rtCoreTile.ts';
import { threadWordOf } from '../memoryMap.ts';
import { gpuTextureSystemParams, hasTextureUnit, textureUnit, type GpuTextureParams, type TextureCountersValue, type TextureLinkValue, type TextureLoadValue } from './gpuTexture.ts';

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
  /**
   * 'bvh': the IC cores walk a BVH4 (BvhIcSystem, loaded with the BVH scene image); 'bvh8': a GFX12 BVH8 image
   * (Bvh8IcSystem, loaded with the BVH8 scene image); absent: every triangle (seed 004).
   */
  readonly traversal?: 'bvh' | 'bvh8';
  /** With 'bvh' or 'bvh8': ray slots per IC core, and the capacities of the node (and for 'bvh' TriRange) memories. */
  readonly icRays?: number;
  readonly nodes?: number;
  readonly triRanges?: number;
  /**
   * 32-bit words of main memory per thread: a power of two, 8 to 16,384 (absent: 16,384, the ISA's 64 KiB).
   * A smaller memory is for FPGAs with less block RAM: addresses wrap within it (the upper address bits are
   * ignored), so a kernel must keep its data, and its return vector at 0xFFF0, apart modulo the size.
   */
  readonly mainMemoryWords?: number;
  /**
   * A texture unit (absent or false: none, and txd is illegal): the RT cores get their txd port, a
   * TextureArbiter joins them onto one TextureUnitSystem, and the memory controller loads its texture memory
   * (TEX_ADDR, TEX_WORDS, LOAD_TEXTURE; FEATURES.TEXTURE_UNIT). `true` builds the default unit; an object
   * changes its parameters (docs/texture.md).
   */
  readonly texture?: boolean | GpuTextureParams;
}

/** The ISA's main memory per thread, in 32-bit words (64 KiB): the most a configuration may have. */
export const MAX_MAIN_MEMORY_WORDS = MEMORY_MAP.threadBytes / 4;

/** The configuration's main memory words per thread, checked. */
export function mainMemoryWords(p: Pick<GpuParams, 'mainMemoryWords'>): number {
  const w = p.mainMemoryWords ?? MAX_MAIN_MEMORY_WORDS;
  if (!Number.isInteger(w) || w < 8 || w > MAX_MAIN_MEMORY_WORDS || (w & (w - 1)) !== 0) throw new Error(`GpuTop: mainMemoryWords must be a power of two from 8 to ${MAX_MAIN_MEMORY_WORDS}, got ${w}`);
  return w;
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

/** The BVH8 configuration: the default cores, BVH8 IC systems at their default capacities (8,192 nodes, 65,536 triangles). */
export const defaultBvh8GpuParams: GpuParams = {
  rtCores: 4,
  icCores: 2,
  traversal: 'bvh8',
  triangles: defaultBvh8IcSystemParams.triangles,
  vertices: defaultBvh8IcSystemParams.vertices,
  icRays: defaultBvh8IcSystemParams.rays,
  nodes: defaultBvh8IcSystemParams.nodes,
};

/** Rays one IC core holds: its slots (a brute-force core the default count). */
const icRaysOf = (p: GpuParams): number => (p.traversal === 'bvh' ? (p.icRays ?? defaultBvhIcSystemParams.rays) : p.traversal === 'bvh8' ? (p.icRays ?? defaultBvh8IcSystemParams.rays) : defaultIcSystemParams.slots);

/** One IC system of the configuration: brute force (IcSystem), BVH (BvhIcSystem) or BVH8 (Bvh8IcSystem); all have the ports the top uses. */
function icSystem(m: ModuleBuilder, p: GpuParams, k: number) {
  if (p.traversal === undefined) return m.instance(IcSystem, { ...defaultIcSystemParams, triangles: p.triangles, vertices: p.vertices, ...triangleTestParam(p) }, { name: `ic_core${k}` });
  if (p.traversal === 'bvh8') {
    const d = defaultBvh8IcSystemParams;
    const system = m.instance(Bvh8IcSystem, { ...d, triangles: p.triangles, vertices: p.vertices, rays: icRaysOf(p), nodes: p.nodes ?? d.nodes }, { name: `ic_core${k}` });
    return system;
  }
  if (p.traversal !== 'bvh') throw new Error(`GpuTop: traversal must be 'bvh', 'bvh8' or absent, got '${String(p.traversal)}'`);
  const d = defaultBvhIcSystemParams;
  const params: BvhIcSystemParams = { ...d, triangles: p.triangles, vertices: p.vertices, rays: p.icRays ?? d.rays, nodes: p.nodes ?? d.nodes, triRanges: p.triRanges ?? d.triRanges, ...triangleTestParam(p) };
  return m.instance(BvhIcSystem, params, { name: `ic_core${k}` });
}

export const GPU_TOP_NAME = 'rtgpu_top';

export const GpuTop = defineModule('GpuTop', (_p: GpuParams) => hostPorts(), (m, io, p) => {
  checkCoreCounts(p, 'GpuTop');
  const gpu = gpuBlocks(m, p);
  passThrough(m, hostPorts(), io, gpu.mc.io);
  frameControl(m, gpu);
  gpu.tiles.forEach((_, c) => rtTile(m, gpu, c));
  icBufferSteering(m, gpu);
  sceneLoad(gpu);
  gpu.ics.forEach((_, k) => icCore(m, gpu, k));
  textureUnitOf(m, gpu, p);
  // A hardware fault: a queue overflowed, two cores named one thread's memory, or main memory missed an answer.
  gpu.mc.io.internal_error.set(gpu.buffer.io.error.or(gpu.pd.io.answer_overflow).or(gpu.main.io.conflict).or(gpu.tiles.map((t) => t.io.mem_error).reduce((a, b) => a.or(b))));
});

type GpuBlocks = ReturnType<typeof gpuBlocks>;

/** Every block of the configuration, not yet connected. */
function gpuBlocks(m: ModuleBuilder, p: GpuParams) {
  // Only a GPU with a texture unit names the option (so the default GPU's blocks are those it always had).
  const texture = hasTextureUnit(p.texture) ? { texture: true } : {};
  const core: RtCoreParams = { ...defaultRtCoreParams, contexts: p.contexts ?? defaultRtCoreParams.contexts, ...texture };
  // Rays in flight per IC core: its slots (icSystem above gives a brute-force core the default count).
  const icRays = icRaysOf(p);
  const mc = m.instance(MemoryController, { rtCores: p.rtCores, icCores: p.icCores, triangleCountBits: triangleIdBits(p), contexts: core.contexts, ...texture }, { name: 'memory_controller' });
  const cp = m.instance(CommandPatcher, {}, { name: 'command_patcher' });
  const pd = m.instance(PatchDispatcher, { rtCores: p.rtCores, icCores: p.icCores, icRays }, { name: 'patch_dispatcher' });
  const buffer = m.instance(IcBuffer, { rtCores: p.rtCores, icCores: p.icCores, depth: PATCH_THREADS }, { name: 'ic_buffer' });
  const mainWords = mainMemoryWords(p);
  const main = m.instance(UnifiedMainMemory, { ports: p.rtCores, threads: MEMORY_MAP.threads, threadWords: mainWords }, { name: 'main_memory' });
  const tiles = Array.from({ length: p.rtCores }, (_, c) => m.instance(RtCoreTile, core, { name: `rt_core${c}` }));
  const ics = Array.from({ length: p.icCores }, (_, k) => icSystem(m, p, k));
  return { mc, cp, pd, buffer, main, mainWords, tiles, ics };
}

/** Memory controller -> command patcher -> patch dispatcher -> memory controller: frames, pixels, ended threads, counters. */
function frameControl(m: ModuleBuilder, { mc, cp, pd }: GpuBlocks): void {
  m.connect(cp.io.frame, mc.io.frame);
  m.connect(pd.io.pixel, cp.io.pixel);
  m.connect(mc.io.thread_done, pd.io.thread_done);
  mc.io.instructions.set(pd.io.instructions);
  mc.io.traces.set(pd.io.traces);
}

/** RT core tile c: loaded by the memory controller, linked to the dispatcher, on main memory port c. */
function rtTile(m: ModuleBuilder, { mc, pd, buffer, main, mainWords, tiles }: GpuBlocks, c: number): void {
  const t = tiles[c]!;
  m.connect(t.io.imem_load, mc.io.imem_load);
  m.connect(t.io.cmem_load, mc.io.cmem_load);
  m.connect(pd.io.cores.at(c), t.io.dispatch);
  buffer.io.ray_origin_rt.at(c).set(t.io.dispatch.event.bits.origin);
  buffer.io.ray_direction_rt.at(c).set(t.io.dispatch.event.bits.direction);
  buffer.io.ray_query_rt.at(c).set(t.io.dispatch.event.bits.query);
  mc.io.core_busy.at(c).set(t.io.dispatch.busy);
  m.connect(mc.io.core_counters.at(c), pd.io.core_counters.at(c));
  t.io.status_context.set(mc.io.context_select);
  m.connect(mc.io.context_status.at(c), t.io.status);
  mainMemoryPort(m, main.io.port.at(c), t.io, { controller: mc.io, shared: c === 0, mainWords });
}

type MainPort = ValueOf<ReturnType<typeof MainMemoryPort>>;
type TileIo = GpuBlocks['tiles'][number]['io'];
type ControllerIo = GpuBlocks['mc']['io'];

/** How a main memory port is shared: with the memory controller's read side (port 0 only), and the memory's words per thread. */
interface PortSharing {
  readonly controller: Pick<ControllerIo, 'mem_read_en' | 'mem_thread' | 'mem_addr' | 'mem_done' | 'mem_data_read'>;
  readonly shared: boolean;
  readonly mainWords: number;
}

/**
 * A main memory port built from an RT core's request and, on the shared port, the memory controller's
 * read side: the controller reads results in the cycles the core makes no request.
 */
function mainMemoryPort(m: ModuleBuilder, port: MainPort, core: Pick<TileIo, 'mem' | 'mem_resp'>, { controller: mc, shared, mainWords }: PortSharing): void {
  const req = core.mem;
  const mcTurn = shared ? mc.mem_read_en.and(req.read.or(req.write).not()) : lit(0, 1).asBool();
  if (shared) {
    mc.mem_done.set(port.done.and(m.regNext(mcTurn, { reset: 0, name: 'mc_mem_turn' })));
    mc.mem_data_read.set(port.data_read);
  }
  port.thread.set(mux(mcTurn, mc.mem_thread, req.thread));
  // A smaller main memory (mainMemoryWords) ignores the upper address bits.
  const wrap = (a: UIntValue) => (mainWords === MAX_MAIN_MEMORY_WORDS ? a : a.bits(Math.log2(mainWords) - 1, 0));
  port.addr.set(mux(mcTurn, wrap(mc.mem_addr), wrap(threadWordOf(req.addr))));
  port.read_en.set(mux(mcTurn, mc.mem_read_en, req.read));
  port.write_en.set(req.write.and(mcTurn.not()));
  // The controller reads return vectors: always vector accesses.
  port.s_or_v.set(req.vector.or(mcTurn));
  port.data_write.set(req.data);
  core.mem_resp.data.set(port.data_read);
  // A core looks at `done` only the cycle after its own request, so the controller's answers never reach it.
  core.mem_resp.done.set(port.done);
}

/** With GpuParams.texture: every tile's txd link onto the texture unit, the controller's texture load onto its memory, the unit's counters onto the controller's TEXTURE registers. */
function textureUnitOf(m: ModuleBuilder, { mc, tiles }: GpuBlocks, p: GpuParams): void {
  if (!hasTextureUnit(p.texture)) return;
  const contexts = p.contexts ?? defaultRtCoreParams.contexts;
  const links = tiles.map((t) => {
    if (!('texture' in t.io)) throw new Error('GpuTop: an RT core tile built without its texture port');
    return (t.io as unknown as { texture: TextureLinkValue }).texture;
  });
  if (!('tex_load' in mc.io) || !('tex_counters' in mc.io)) throw new Error('GpuTop: the memory controller built without its texture load and counters');
  const { tex_load: load, tex_counters: counters } = mc.io as unknown as { tex_load: TextureLoadValue; tex_counters: TextureCountersValue };
  textureUnit(m, gpuTextureSystemParams(p.texture as true | GpuTextureParams, p.rtCores, contexts), links, { load, counters }, contexts);
}

/** The IC buffer's queues, steered by the dispatcher. */
function icBufferSteering(m: ModuleBuilder, { pd, buffer }: GpuBlocks): void {
  m.connect(buffer.io.steer, pd.io.steer);
  // Never cleared: a queue error stays on internal_error until reset.
  buffer.io.clear_errors.set(false);
}

/** The controller's one scene image port, fanned out: every IC system loads the same image, so core 0's count speaks for all and any core's error is the load's. */
function sceneLoad({ mc, ics }: GpuBlocks): void {
  const load = mc.io.tri_load;
  for (const system of ics) for (const k of ['start', 'valid', 'data'] as const) system.io.load[k].set(load[k]);
  load.error.set(ics.map((system) => system.io.load.error).reduce((a, b) => a.or(b)));
  load.triangle_count.set(ics[0]!.io.load.triangle_count);
}

/** IC system k: rays from the buffer, answers to the dispatcher. */
function icCore(m: ModuleBuilder, { mc, pd, buffer, ics }: GpuBlocks, k: number): void {
  const s = ics[k]!;
  s.io.ray_origin.set(buffer.io.ray_origin_ic);
  s.io.ray_direction.set(buffer.io.ray_direction_ic);
  s.io.ray_query.set(buffer.io.ray_query_ic);
  s.io.ray_thread.set(pd.io.ray_thread);
  m.connect(pd.io.ic.at(k), s.io.dispatch);
  m.connect(buffer.io.answer_ic.at(k), pd.io.answer.at(k));
  m.connect(mc.io.ic_counters.at(k), s.io.counters);
}
