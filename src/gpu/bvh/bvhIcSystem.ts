// One BVH intersection core with its memories (triangles, BVHNode4 nodes, TriRanges), loaded from the BVH scene image
// through the same port as the brute-force IC system (docs/bvh-hardware.md).
import { Bool, UInt, Vec, cat, defineModule, fsm, lit, mux, output, packBits, unpackBits, type BoolValue, type Fsm, type InstanceHandle, type MemoryHandle, type ModuleBuilder, type PortsValue, type UIntType, type UIntValue } from '../../hdl/index.ts';
import { clog2 } from '../../hdl/lib/index.ts';
import { gpuFloatLatencies } from '../floatLatencies.ts';
import { rayPorts } from '../icCore/icCore.ts';
import { sceneLoadPorts } from '../icCore/icSystem.ts';
import { triangleTestParam, type TriangleTestOption } from '../icCore/watertightIntersection.ts';
import { passThrough } from '../passThrough.ts';
import { TRIANGLE_MEMORY_LATENCY, TriangleMemory, triangleIdBits } from '../memory/triangleMemory.ts';
import { BvhIcCore, nodeWordBits } from './bvhIcCore.ts';
import { CHILDREN, ChildFlags, NodeBoxes, NodeWord, TriRange } from './bvhWords.ts';

/** Flat, so module names read `BvhIcSystem_fadd3_…`. */
export interface BvhIcSystemParams extends TriangleTestOption {
  readonly fadd: number;
  readonly fmul: number;
  readonly fdiv: number;
  /** Rays in flight (2, 4, 8, 16 or 32). */
  readonly rays: number;
  /** Capacities: triangles and vertices of the triangle memory, BVHNode4 nodes, TriRanges (each 2 to 2^20). */
  readonly triangles: number;
  readonly vertices: number;
  readonly nodes: number;
  readonly triRanges: number;
}

export const defaultBvhIcSystemParams: BvhIcSystemParams = { fadd: gpuFloatLatencies.fadd, fmul: gpuFloatLatencies.fmul, fdiv: gpuFloatLatencies.fdiv, rays: 16, triangles: 65536, vertices: 65536, nodes: 32768, triRanges: 65536 };

/** Bits of a node or TriRange index in the stack and the node words. */
export const bvhIndexBits = (p: Pick<BvhIcSystemParams, 'nodes' | 'triRanges'>): number => clog2(Math.max(p.nodes, p.triRanges));

/** Words of one BVHNode4 and one TriRange in the image (src/bvh/node4.ts). */
const NODE_WORDS = 32;
const RANGE_WORDS = 4;
const BOX_WORDS = 6 * CHILDREN;

/** The loader's place in the BVH scene image (docs/host.md): header, triangle section, node count, nodes, TriRange count, TriRanges, end. */
const LOAD_PHASES = ['header', 'triangles', 'nodeCount', 'nodes', 'rangeCount', 'ranges', 'done'] as const;

function checkParams(p: BvhIcSystemParams): void {
  for (const k of ['triangles', 'vertices', 'nodes', 'triRanges'] as const) {
    if (!Number.isInteger(p[k]) || p[k] < 2 || p[k] > 1 << 20) throw new Error(`BvhIcSystem: ${k} must be an integer from 2 to 2^20, got ${p[k]}`);
  }
}

// load_error: also a malformed or too big BVH section, a ray before the image was complete, a stack overflow.
const bvhIcSystemPorts = (p: BvhIcSystemParams) => ({
  ...sceneLoadPorts(p),
  ...rayPorts(),
});

export const BvhIcSystem = defineModule(
  'BvhIcSystem',
  bvhIcSystemPorts,
  (m, io, p) => {
    checkParams(p);
    const ib = bvhIndexBits(p);
    const tb = triangleIdBits(p);
    const core = m.instance(BvhIcCore, { fadd: p.fadd, fmul: p.fmul, fdiv: p.fdiv, rays: p.rays, indexBits: ib, triangleBits: tb, memory: TRIANGLE_MEMORY_LATENCY, ...triangleTestParam(p) }, { name: 'core' });
    const tri = m.instance(TriangleMemory, { triangles: p.triangles, vertices: p.vertices }, { name: 'triangles' });
    const nodes = m.memory(UInt(nodeWordBits(ib)), p.nodes, { name: 'nodes' });
    const ranges = m.memory(UInt(TriRange(tb).width), p.triRanges, { name: 'tri_ranges' });
    passThrough(m, rayPorts(), io, core.io);
    io.load.triangle_count.set(tri.io.load.triangle_count);

    const image = imageLoader(m, io, p, ib, tb, tri, nodes, ranges);
    // A ray before the image is complete would walk a half-written tree.
    m.when(io.dispatch.ray_start.and(image.load.is('done').not()).and(io.load.start.not()), image.fail);
    // A ray overflowed its stack: the tree is malformed (sticky like the rest, until load_start).
    m.when(core.io.stack_overflow, image.fail);
    io.load.error.set(image.error.or(tri.io.load.error));
    coreMemories(m, core.io, tri, nodes, ranges, image, tb, p);
  },
);

type BvhIcSystemIo = PortsValue<ReturnType<typeof bvhIcSystemPorts>>;
type Memory = MemoryHandle<UIntType>;
type TriangleMemoryInstance = InstanceHandle<ReturnType<(typeof TriangleMemory)['ports']>>;

/** Where the loader is in the image, its sticky error, and the node and TriRange counts the image declared. */
interface ImageLoader {
  readonly load: Fsm<(typeof LOAD_PHASES)[number]>;
  readonly error: BoolValue;
  /** Sets the sticky error (in the calling `when`). */
  readonly fail: () => void;
  readonly nodeCount: UIntValue;
  readonly rangeCount: UIntValue;
}

/**
 * The loader: walks the BVH scene image word by word, streaming the triangle section into the triangle
 * memory and writing the node and TriRange records into their memories; a malformed section sets the error.
 */
function imageLoader(m: ModuleBuilder, io: BvhIcSystemIo, p: BvhIcSystemParams, ib: number, tb: number, tri: TriangleMemoryInstance, nodes: Memory, ranges: Memory): ImageLoader {
  const start = io.load.start;
  const load = fsm(m, 'load', LOAD_PHASES, 'header');
  const left = m.reg(UInt(32), { reset: 0 }); // words left in the triangle section, or records left
  const word = m.reg(UInt(5), { reset: 0 }); // word within the record
  const record = m.reg(UInt(21), { reset: 0 });
  const boxes = m.reg(UInt(32 * BOX_WORDS), { name: 'staged_boxes' });
  const indices = Array.from({ length: CHILDREN }, (_, c) => m.reg(UInt(ib), { name: `staged_index${c}` }));
  const flags = m.reg(UInt(2 * CHILDREN), { name: 'staged_flags' });
  const first = m.reg(UInt(tb), { name: 'staged_first' });
  const error = m.reg(Bool, { reset: 0 });
  // The loaded sizes the core checks every index against (0 until the image says, and for a count past the capacity).
  const nodeCount = m.reg(UInt(ib + 1), { reset: 0 });
  const rangeCount = m.reg(UInt(ib + 1), { reset: 0 });
  // load_start restarts at once: a word arriving with it is word 0 of the new image.
  const phaseNow = m.wire(load.type);
  phaseNow.set(load.state);
  m.when(start, () => phaseNow.set('header'));
  const wordNow = mux(start, lit(0, 5), word);
  const accept = io.load.valid.and(error.and(start.not()).not());
  const data = io.load.data;
  const fail = () => error.set(true);
  const fits = (bits: number) => (bits >= 32 ? lit(1, 1).asBool() : data.bits(31, bits).eq(0));
  // The records as the memories hold them.
  const stagedNode = m.wire(NodeWord(ib), { name: 'staged_node' });
  m.connect(stagedNode.boxes, unpackBits(NodeBoxes, boxes));
  indices.forEach((r, c) => stagedNode.childIndex.at(c).set(r));
  m.connect(stagedNode.childFlags, unpackBits(Vec(CHILDREN, ChildFlags), flags));
  const stagedRange = m.wire(TriRange(tb), { name: 'staged_range' });
  stagedRange.first.set(first);
  stagedRange.count.set(data.trunc(tb));

  // The triangle memory sees the image's triangle section only.
  tri.io.load.start.set(start);
  tri.io.load.valid.set(accept.and(phaseNow.is('triangles')));
  tri.io.load.data.set(data);
  m.when(start, () => {
    load.goto('header');
    word.set(0);
    error.set(false);
    nodeCount.set(0);
    rangeCount.set(0);
  });
  m.when(accept, () => {
    m.switch(phaseNow)
      .is('header', () => {
        // T words of triangle image follow; the smallest valid one is two all-zero records.
        m.when(data.lt(8), fail);
        left.set(data);
        load.goto('triangles');
      })
      .is('triangles', () => {
        left.set(left.sub(1));
        m.when(left.eq(1), () => load.goto('nodeCount'));
      })
      .is('nodeCount', () => {
        m.when(data.eq(0).or(data.gt(p.nodes)), fail);
        nodeCount.set(mux(data.gt(p.nodes), lit(0, ib + 1), data.trunc(ib + 1)));
        left.set(data);
        record.set(0);
        word.set(0);
        load.goto('nodes');
      })
      .is('nodes', () => {
        word.set(wordNow.add(1));
        m.when(wordNow.lt(BOX_WORDS), () => boxes.set(cat(data, boxes.bits(32 * BOX_WORDS - 1, 32))));
        indices.forEach((r, c) => m.when(wordNow.eq(BOX_WORDS + c), () => {
          r.set(data.trunc(ib));
          m.when(fits(ib).not(), fail);
        }));
        m.when(wordNow.eq(BOX_WORDS + CHILDREN), () => {
          flags.set(data.trunc(2 * CHILDREN));
          m.when(fits(2 * CHILDREN).not(), fail);
        });
        m.when(wordNow.gt(BOX_WORDS + CHILDREN).and(data.ne(0)), fail);
        m.when(wordNow.eq(NODE_WORDS - 1), () => {
          nodes.write(record.trunc(clog2(p.nodes)), packBits(stagedNode));
          record.set(record.add(1));
          left.set(left.sub(1));
          m.when(left.eq(1), () => load.goto('rangeCount'));
        });
      })
      .is('rangeCount', () => {
        m.when(data.gt(p.triRanges), fail);
        rangeCount.set(mux(data.gt(p.triRanges), lit(0, ib + 1), data.trunc(ib + 1)));
        left.set(data);
        record.set(0);
        word.set(0);
        m.when(data.eq(0), () => load.goto('done')).otherwise(() => load.goto('ranges'));
      })
      .is('ranges', () => {
        word.set(wordNow.add(1).bits(1, 0).zext(5));
        m.when(fits(tb).not().or(wordNow.gt(1).and(data.ne(0))), fail);
        m.when(wordNow.eq(0), () => first.set(data.trunc(tb)));
        m.when(wordNow.eq(1), () => ranges.write(record.trunc(clog2(p.triRanges)), packBits(stagedRange)));
        m.when(wordNow.eq(RANGE_WORDS - 1), () => {
          record.set(record.add(1));
          left.set(left.sub(1));
          m.when(left.eq(1), () => load.goto('done'));
        });
      })
      .default(fail); // a word past the end of the image
  });
  return { load, error, fail, nodeCount, rangeCount };
}

/** The core's reads of its memories, and what of them is loaded. */
function coreMemories(m: ModuleBuilder, core: InstanceHandle<ReturnType<(typeof BvhIcCore)['ports']>>['io'], tri: TriangleMemoryInstance, nodes: Memory, ranges: Memory, image: ImageLoader, tb: number, p: BvhIcSystemParams): void {
  core.node_count.set(image.nodeCount);
  core.range_count.set(image.rangeCount);
  core.triangle_count.set(tri.io.load.triangle_count);
  core.node_resp.set(nodes.read(core.node_req_index.trunc(clog2(p.nodes))));
  const range = unpackBits(TriRange(tb), ranges.read(core.range_req_index.trunc(clog2(p.triRanges))));
  core.range_resp_first.set(range.first);
  core.range_resp_count.set(range.count);
  m.connect(tri.io.read, core.tri);
}
