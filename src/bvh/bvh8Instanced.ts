// The two-level BVH8 image: a TLAS of GFX12 box nodes over instance nodes, each instance pointing at its mesh's BLAS, every BLAS placed once however many instances share it (docs/bvh.md "Instances").
import { fromNumber, toNumber } from '../golden/float32.ts';
import { checkInstances, worldToObjectBits, type Affine, type InstancedScene } from '../golden/instancedScene.ts';
import type { Box } from '../golden/rayBox.ts';
import type { Vec3 } from '../golden/rayCaster.ts';
import type { Scene } from '../golden/scene.ts';
import { BvhBuildError, buildBinaryBvh, isBinaryLeaf, toBox, wideChildren, type BinaryNode } from './builder.ts';
import { STACK_DEPTH } from './bvh4.ts';
import { buildBvh8, type Bvh8, type Bvh8BuildOptions } from './bvh8.ts';
import { BVH8_BOX_TYPE, OFFSET_UNITS_PER_NODE, encodeBvh8Image } from './bvh8Image.ts';
import { GFX12_MAX_CHILDREN, GFX12_NODE_WORDS, encodeGfx12BoxNode, type Gfx12BoxChild } from './gfx12.ts';
import { BVH8_INSTANCE_TYPE, GFX12_MAX_USER_DATA, encodeGfx12InstanceNode } from './gfx12Instance.ts';

/** bvh_addr counts 4-byte units: node k starts at 32·k. */
export const BVH_ADDR_UNITS_PER_NODE = 32;

/** Where one mesh's BLAS lies in the image. */
export interface PlacedBlas {
  readonly mesh: number;
  /** Node index of its root (its nodes follow, in encodeBvh8Image's order). */
  readonly root: number;
  readonly nodes: number;
  readonly worstCaseStack: number;
}

export interface Bvh8InstancedImage {
  /** TLAS box nodes from node 0, then the instance nodes, then each BLAS. */
  readonly words: Uint32Array;
  readonly tlasBoxNodes: number;
  readonly instanceNodes: number;
  readonly blas: readonly PlacedBlas[];
  /** Instance ids (scene order) left out because their mesh has nothing to hit. */
  readonly skipped: readonly number[];
  /** Stack entries the traversal can need: the TLAS's, or a path to an instance plus its BLAS's (one stack for both). */
  readonly worstCaseStack: number;
}

/** The object-space bounds of a BVH8 (the union of its root's children), as doubles. */
function bvhBounds(bvh: Bvh8): { lo: number[]; hi: number[] } {
  const kids = bvh.nodes[0]!.children;
  return {
    lo: [0, 1, 2].map((a) => Math.min(...kids.map((k) => toNumber(k.box.min[a]!)))),
    hi: [0, 1, 2].map((a) => Math.max(...kids.map((k) => toNumber(k.box.max[a]!)))),
  };
}

const nextUp = (x: number): number => {
  const b = fromNumber(x);
  const v = toNumber(b);
  if (v > x) return v;
  return toNumber(v >= 0 ? (b === 0x80000000 ? 1 : b + 1) : b - 1);
};
const nextDown = (x: number): number => -nextUp(-x);

/**
 * An object-space box through objectToWorld: the 8 corners in double precision, their bounds widened by
 * 2^−20 of the box's size and magnitude (the ray transform rounds; the world box must not cull what the object
 * box holds), then rounded outward to binary32.
 */
export function worldBox(m: Affine, lo: readonly number[], hi: readonly number[]): Box {
  const wlo = [Infinity, Infinity, Infinity];
  const whi = [-Infinity, -Infinity, -Infinity];
  for (let c = 0; c < 8; c++) {
    const p = [c & 1 ? hi[0]! : lo[0]!, c & 2 ? hi[1]! : lo[1]!, c & 4 ? hi[2]! : lo[2]!];
    for (let r = 0; r < 3; r++) {
      const x = m[4 * r]! * p[0]! + m[4 * r + 1]! * p[1]! + m[4 * r + 2]! * p[2]! + m[4 * r + 3]!;
      wlo[r] = Math.min(wlo[r]!, x);
      whi[r] = Math.max(whi[r]!, x);
    }
  }
  const slack = [0, 1, 2].map((a) => 2 ** -20 * (whi[a]! - wlo[a]! + Math.max(Math.abs(wlo[a]!), Math.abs(whi[a]!))));
  const min = [0, 1, 2].map((a) => fromNumber(nextDown(wlo[a]! - slack[a]!))) as unknown as Vec3;
  const max = [0, 1, 2].map((a) => fromNumber(nextUp(whi[a]! + slack[a]!))) as unknown as Vec3;
  if ([...min, ...max].some((b) => (b & 0x7f800000) === 0x7f800000)) throw new BvhBuildError('an instance reaches outside the binary32 range');
  return { min, max };
}

/** A box as a triangle (lo, hi, hi): the binary SAH builder sees exactly that box, centred where the box is. */
function boxesAsTriangles(boxes: readonly Box[]): Scene {
  return {
    vertices: Uint32Array.from(boxes.flatMap((b) => [...b.min, ...b.max])),
    triangles: Uint32Array.from(boxes.flatMap((_, i) => [2 * i, 2 * i + 1, 2 * i + 1, 1])),
  };
}

/**
 * Build the two-level image of an instanced scene. Each mesh an instance uses gets its BVH8 (buildBvh8 with
 * `opts`), encoded once (encodeBvh8Image) and moved after the TLAS, its box nodes' offsets shifted to stay image
 * relative. Each instance gets an instance node: world_to_object = the binary32 inverse of its objectToWorld,
 * bvh_addr = its BLAS root, user_data = its instance id (its index in the scene), the unused word = its shader id
 * (0: the triangles' own), one child: the BLAS's object-space bounds. The TLAS is the binary SAH BVH over the
 * instances' world boxes with one instance per leaf, collapsed to 8 wide; laid out breadth first from node 0 like
 * encodeBvh8Image, instance children counted from primitive_child_offset (node_type 6, node_size 1).
 */
export function buildBvh8Instanced(scene: InstancedScene, opts: Bvh8BuildOptions = {}): Bvh8InstancedImage {
  checkInstances(scene);
  if (scene.instances.length - 1 > GFX12_MAX_USER_DATA) throw new BvhBuildError(`${scene.instances.length} instances; user_data (the instance id) has 24 bits`);
  const bvhs = new Map<number, Bvh8>();
  for (const inst of scene.instances) if (!bvhs.has(inst.mesh)) bvhs.set(inst.mesh, buildBvh8(scene.meshes[inst.mesh]!, opts));
  const live = scene.instances.map((inst, id) => ({ inst, id })).filter(({ inst }) => bvhs.get(inst.mesh)!.nodes.length > 0);
  const liveIds = new Set(live.map((l) => l.id));
  const skipped = scene.instances.map((_, id) => id).filter((id) => !liveIds.has(id));
  const bounds = new Map([...bvhs].filter(([, b]) => b.nodes.length > 0).map(([mesh, b]) => [mesh, bvhBounds(b)]));
  const boxes = live.map(({ inst }) => worldBox(inst.objectToWorld, bounds.get(inst.mesh)!.lo, bounds.get(inst.mesh)!.hi));

  // The TLAS: box nodes (binary nodes collapsed 8 wide) and instance leaves, breadth first.
  const { root, order } = buildBinaryBvh(boxesAsTriangles(boxes), { maxLeafTriangles: 1, bins: opts.bins }, 1);
  const tlas: { node: BinaryNode; kids: BinaryNode[] }[] = [];
  const instanceOrder: number[] = [];
  const firstChild: { internal: number; primitive: number }[] = [];
  const pathStack: number[] = [];
  if (root !== undefined) {
    const queue: { node: BinaryNode; above: number }[] = [{ node: root, above: 0 }];
    let nextBox = 1;
    for (let q = 0; q < queue.length; q++) {
      const { node, above } = queue[q]!;
      const kids = wideChildren(node, GFX12_MAX_CHILDREN);
      const here = above + kids.length - 1;
      tlas.push({ node, kids });
      const inner = kids.filter((k) => !isBinaryLeaf(k));
      firstChild.push({ internal: inner.length > 0 ? nextBox : -1, primitive: -1 });
      nextBox += inner.length;
      for (const k of inner) queue.push({ node: k, above: here });
      for (const k of kids.filter(isBinaryLeaf)) {
        if (k.count !== 1) throw new BvhBuildError(`a TLAS leaf holds ${k.count} instances; it must hold one`);
        if (firstChild[q]!.primitive < 0) firstChild[q] = { ...firstChild[q]!, primitive: instanceOrder.length };
        instanceOrder.push(order[k.start]!);
        pathStack.push(here);
      }
    }
  }
  const boxNodes = tlas.length;
  const blasBase = boxNodes + instanceOrder.length;

  // The BLASes, each once, after the TLAS.
  const blas: PlacedBlas[] = [];
  const blasWords: Uint32Array[] = [];
  let next = blasBase;
  for (const [mesh, bvh] of bvhs) {
    if (bvh.nodes.length === 0) continue;
    const img = encodeBvh8Image(bvh);
    const words = img.words.slice();
    // Offsets are image relative: shift every box node's nonzero offsets by the BLAS's place.
    for (const at of img.nodeAt)
      for (const f of [0, 1]) if (words[at * GFX12_NODE_WORDS + f]! !== 0) words[at * GFX12_NODE_WORDS + f]! += next * OFFSET_UNITS_PER_NODE;
    blas.push({ mesh, root: next, nodes: words.length / GFX12_NODE_WORDS, worstCaseStack: bvh.worstCaseStack });
    blasWords.push(words);
    next += words.length / GFX12_NODE_WORDS;
  }
  const blasOf = new Map(blas.map((b) => [b.mesh, b]));
  const words = new Uint32Array(next * GFX12_NODE_WORDS);
  tlas.forEach(({ kids }, q) => {
    const children = kids.map((k): Gfx12BoxChild => (isBinaryLeaf(k) ? { box: toBox(k), nodeType: BVH8_INSTANCE_TYPE, nodeSize: 1 } : { box: toBox(k), nodeType: BVH8_BOX_TYPE, nodeSize: 1 }));
    const f = firstChild[q]!;
    const offset = (node: number) => (node < 0 ? 0 : node * OFFSET_UNITS_PER_NODE);
    words.set(encodeGfx12BoxNode({ internalChildOffset: offset(f.internal), primitiveChildOffset: offset(f.primitive < 0 ? -1 : boxNodes + f.primitive), children }), q * GFX12_NODE_WORDS);
  });
  let worst = pathStack.length > 0 ? 1 + Math.max(...pathStack) : 0;
  instanceOrder.forEach((k, i) => {
    const { inst, id } = live[k]!;
    const placed = blasOf.get(inst.mesh)!;
    const { lo, hi } = bounds.get(inst.mesh)!;
    const objectBox: Box = { min: lo.map(fromNumber) as unknown as Vec3, max: hi.map(fromNumber) as unknown as Vec3 };
    const node = encodeGfx12InstanceNode({
      worldToObject: worldToObjectBits(inst.objectToWorld),
      bvhAddr: placed.root * BVH_ADDR_UNITS_PER_NODE,
      shaderId: inst.shaderId ?? 0,
      userData: id,
      children: [{ box: objectBox, nodeType: BVH8_BOX_TYPE, nodeSize: 1 }],
    });
    words.set(node, (boxNodes + i) * GFX12_NODE_WORDS);
    // Popping the instance leaves at most pathStack[i] entries below; its BLAS root takes its place.
    worst = Math.max(worst, pathStack[i]! + placed.worstCaseStack);
  });
  blasWords.forEach((w, i) => words.set(w, blas[i]!.root * GFX12_NODE_WORDS));
  if (worst > STACK_DEPTH) throw new BvhBuildError(`the two-level BVH8 can need ${worst} traversal stack entries, the stack holds ${STACK_DEPTH}`);
  return { words, tlasBoxNodes: boxNodes, instanceNodes: instanceOrder.length, blas, skipped, worstCaseStack: worst };
}
