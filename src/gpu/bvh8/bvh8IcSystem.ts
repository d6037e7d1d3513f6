// One BVH8 intersection core with its node memory, loaded from the BVH8 scene image (src/bvh/bvh8SceneImage.ts) through
// the same load port as the other IC systems (docs/bvh-hardware.md, "BVH8 traversal core").
import { Bool, UInt, cat, defineModule, fsm, lit, mux, output, type MemoryHandle, type UIntType } from '../../hdl/index.ts';
import { clog2 } from '../../hdl/lib/index.ts';
import { gpuFloatLatencies } from '../floatLatencies.ts';
import { rayPorts } from '../icCore/icCore.ts';
import { sceneLoadPorts } from '../icCore/icSystem.ts';
import { triangleIdBits } from '../memory/triangleMemory.ts';
import { passThrough } from '../passThrough.ts';
import { Bvh8IcCore, bvh8ThreadBits } from './bvh8IcCore.ts';

/** Flat, so module names read `Bvh8IcSystem_fadd3_…`. */
export interface Bvh8IcSystemParams {
  readonly fadd: number;
  readonly fmul: number;
  readonly fdiv: number;
  /** Rays in flight (2, 4, 8, 16, 32 or 64). */
  readonly rays: number;
  /** The ray link's thread id width (Bvh8IcCore's `threadBits`; default 5, the GPU's). */
  readonly threadBits?: number;
  /** Capacity of the node memory in 128-byte nodes (2 to 2^20). */
  readonly nodes: number;
  /** The most triangles an image may declare (word 0); with `vertices`, sizes `load_triangle_count` as the other IC systems' (triangleIdBits). */
  readonly triangles: number;
  readonly vertices: number;
}

export const defaultBvh8IcSystemParams: Bvh8IcSystemParams = { fadd: gpuFloatLatencies.fadd, fmul: gpuFloatLatencies.fmul, fdiv: gpuFloatLatencies.fdiv, rays: 16, nodes: 8192, triangles: 65536, vertices: 65536 };

/** Bits of a node index: every loaded index (below `nodes`) and an all-ones index that is never loaded. */
export const bvh8IndexBits = (p: Pick<Bvh8IcSystemParams, 'nodes'>): number => clog2(p.nodes + 1);


const NODE_WORDS = 32;
const NODE_BITS = 32 * NODE_WORDS;

/** The loader's place in the image: the triangle count, the node count, the nodes, the end. */
const LOAD_PHASES = ['triangles', 'nodeCount', 'nodes', 'done'] as const;

function checkParams(p: Bvh8IcSystemParams): void {
  for (const k of ['nodes', 'triangles', 'vertices'] as const) if (!Number.isInteger(p[k]) || p[k] < 2 || p[k] > 1 << 20) throw new Error(`Bvh8IcSystem: ${k} must be an integer from 2 to 2^20, got ${p[k]}`);
}

// load_error (sticky until load_start): a triangle count past `triangles`, a node count past the capacity,
// a word past the end of the image, a ray before the image is complete. A malformed node is not a load error: the rays
// that reach it fault (done_fault), as castRayBvh8's do.
const bvh8IcSystemPorts = (p: Bvh8IcSystemParams) => (checkParams(p), {
  ...sceneLoadPorts(p),
  ...rayPorts(bvh8ThreadBits(p)),
  // The core's extra counters.
  box_tests: output(UInt(32)),
  primitive_nodes: output(UInt(32)),
  instance_nodes: output(UInt(32)),
});

export const Bvh8IcSystem = defineModule('Bvh8IcSystem', bvh8IcSystemPorts, (m, io, p) => {
  checkParams(p);
  const ib = bvh8IndexBits(p);
  const tb = triangleIdBits(p);
  const ab = clog2(p.nodes);
  // threadBits only when given, so that the GPU's module names stay as they were.
  const core = m.instance(Bvh8IcCore, { fadd: p.fadd, fmul: p.fmul, fdiv: p.fdiv, rays: p.rays, indexBits: ib, ...(p.threadBits !== undefined && { threadBits: p.threadBits }) }, { name: 'core' });
  const nodes: MemoryHandle<UIntType> = m.memory(UInt(NODE_BITS), p.nodes, { name: 'nodes' });
  passThrough(m, rayPorts(bvh8ThreadBits(p)), io, core.io);
  io.box_tests.set(core.io.box_tests);
  io.primitive_nodes.set(core.io.primitive_nodes);
  io.instance_nodes.set(core.io.instance_nodes);

  // ------------------------------------------------------------------ the loader
  const start = io.load.start;
  const load = fsm(m, 'load', LOAD_PHASES, 'triangles');
  const phaseNow = m.wire(load.type);
  phaseNow.set(load.state);
  m.when(start, () => phaseNow.set('triangles')); // a word arriving with load_start is word 0 of the new image
  const error = m.reg(Bool, { reset: 0 });
  const triangles = m.reg(UInt(tb), { reset: 0 });
  // The loaded node count the core checks every index against: 0 until the image is complete.
  const nodeCount = m.reg(UInt(ib), { reset: 0 });
  const declared = m.reg(UInt(ib), { reset: 0 });
  const left = m.reg(UInt(ib), { reset: 0 });
  const record = m.reg(UInt(ab), { reset: 0 });
  const word = m.reg(UInt(5), { reset: 0 });
  const staged = m.reg(UInt(NODE_BITS - 32), { name: 'staged_node' });
  const data = io.load.data;
  const accept = io.load.valid.and(error.and(start.not()).not());
  const fail = () => error.set(true);
  const finished = () => {
    load.goto('done');
    nodeCount.set(declared);
  };
  m.when(start, () => {
    load.goto('triangles');
    error.set(false);
    triangles.set(0);
    nodeCount.set(0);
    word.set(0);
  });
  m.when(accept, () => {
    m.switch(phaseNow)
      .is('triangles', () => {
        m.when(data.gt(p.triangles), fail).otherwise(() => triangles.set(data.trunc(tb)));
        load.goto('nodeCount');
      })
      .is('nodeCount', () => {
        m.when(data.gt(p.nodes), fail);
        declared.set(mux(data.gt(p.nodes), lit(0, ib), data.trunc(ib)));
        left.set(data.trunc(ib));
        record.set(0);
        word.set(0);
        m.when(data.eq(0), finished).otherwise(() => load.goto('nodes'));
      })
      .is('nodes', () => {
        // Words 0 .. 30 shift into the staging register; word 31 completes the node (word k at bits 32k + 31 : 32k).
        word.set(word.add(1));
        staged.set(cat(data, staged.bits(NODE_BITS - 33, 32)));
        m.when(word.eq(NODE_WORDS - 1), () => {
          nodes.write(record, cat(data, staged));
          record.set(record.add(1));
          left.set(left.sub(1));
          m.when(left.eq(1), finished);
        });
      })
      .default(fail); // a word past the end of the image
  });
  // A ray before the image is complete would walk a half-written tree.
  m.when(io.dispatch.ray_start.and(load.is('done').not()).and(start.not()), fail);
  io.load.error.set(error);
  io.load.triangle_count.set(triangles);
  core.io.node_count.set(nodeCount);
  core.io.node_resp.set(nodes.read(core.io.node_req_index.trunc(ab)));
});
