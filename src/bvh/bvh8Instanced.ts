// The two-level BVH8 image: a TLAS of GFX12 box nodes over instance nodes, each instance pointing at its mesh's BLAS, every BLAS placed once however many instances share it (docs/bvh.md "Instances").
import { fromNumber, toNumber } from '../golden/float32.ts';
import { checkInstances, worldToObjectBits, type Affine, type InstancedScene } from '../scenes/instancedScene.ts';
import type { Box } from '../golden/rayBox.ts';
import type { Vec3 } from '../golden/rayCaster.ts';
import type { Scene } from '../golden/scene.ts';
import { BvhBuildError, buildBinaryBvh, isBinaryLeaf, toBox, wideChildren, type BinaryNode } from './builder.ts';
import { STACK_DEPTH } from './bvh4.ts';
import { buildBvh8, type Bvh8, type Bvh8BuildOptions } from './bvh8.ts';
import { BVH8_BOX_TYPE, OFFSET_UNITS_PER_NODE, bvh8ChildTargets, bvh8ImageNodes, bvh8NodeWords, decodeBvh8Image, encodeBvh8Image, wrap, type DecodedBvh8Image } from './bvh8Image.ts';
import { GFX12_MAX_CHILDREN, GFX12_NODE_WORDS, Gfx12Error, OBB_DISABLED, decodeGfx12BoxNode, encodeGfx12BoxNode, type Gfx12BoxChild, type Gfx12BoxNode } from './gfx12.ts';
import { BVH8_INSTANCE_TYPE, GFX12_MAX_USER_DATA, decodeGfx12InstanceNode, encodeGfx12InstanceNode, type Gfx12InstanceNode } from './gfx12Instance.ts';

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
    // cull_mask: the OR of the instance masks beneath (the instance's own for an instance child).
    const cullMask = (k: BinaryNode) => Array.from(order.subarray(k.start, k.start + k.count), (j) => live[j]!.inst.mask ?? 0xff).reduce((m, x) => m | x, 0);
    const children = kids.map((k): Gfx12BoxChild => ({ box: toBox(k), nodeType: isBinaryLeaf(k) ? BVH8_INSTANCE_TYPE : BVH8_BOX_TYPE, nodeSize: 1, cullMask: cullMask(k) }));
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
      cullMask: inst.mask ?? 0xff,
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

export interface DecodedBvh8InstancedImage {
  /** Box nodes of the TLAS (from node 0). */
  readonly tlasBoxNodes: ReadonlyMap<number, Gfx12BoxNode>;
  /** Instance nodes by node index. */
  readonly instances: ReadonlyMap<number, Gfx12InstanceNode>;
  /** Each BLAS once, by root: its node count and what decodeBvh8Image says of it (node numbers relative to its root). */
  readonly blas: readonly { readonly root: number; readonly nodes: number; readonly decoded: DecodedBvh8Image }[];
  readonly worstCaseStack: number;
}

/**
 * Decode and check a two-level image, naming the node of the first problem: the TLAS from node 0 holds box nodes
 * (OBB off) whose children are box nodes or instance nodes (node_size 1; a triangle child is refused); every
 * instance node decodes and its bvh_addr is a whole node inside the image and outside the TLAS; each BLAS (the
 * nodes its box nodes reach, consecutive from its root, no instance children) passes decodeBvh8Image once its
 * offsets are made relative to its root; every node belongs to exactly one of these; the worst-case stack of a
 * path to an instance plus its BLAS's is within STACK_DEPTH.
 */
export function decodeBvh8InstancedImage(words: Uint32Array): DecodedBvh8InstancedImage {
  const count = bvh8ImageNodes(words);
  const tlasBoxNodes = new Map<number, Gfx12BoxNode>();
  const instances = new Map<number, Gfx12InstanceNode>();
  if (count === 0) return { tlasBoxNodes, instances, blas: [], worstCaseStack: 0 };
  const owner: (string | undefined)[] = new Array<string | undefined>(count).fill(undefined);
  const claim = (node: number, by: string, from: string): void => {
    if (node >= count) throw new Gfx12Error(`${from} points at node ${node}, past the image's ${count} nodes`);
    if (owner[node] !== undefined) throw new Gfx12Error(`node ${node} is reached twice (again from ${from})`);
    owner[node] = by;
  };
  // The TLAS: entries carry the Σ (children − 1) above them, as decodeBvh8Image's walk.
  claim(0, 'TLAS', 'the root');
  let worst = 0;
  const below = new Map<number, number>();
  const todo = [{ node: 0, above: 0 }];
  while (todo.length > 0) {
    const { node, above } = todo.pop()!;
    const where = `TLAS box node ${node}`;
    const box = wrap(where, () => decodeGfx12BoxNode(bvh8NodeWords(words, node)));
    if (box.obbMatrixIndex !== OBB_DISABLED) throw new Gfx12Error(`${where}: obb_matrix_index is ${box.obbMatrixIndex}; the TLAS has OBB off (${OBB_DISABLED})`);
    tlasBoxNodes.set(node, box);
    const here = above + box.children.length - 1;
    worst = Math.max(worst, 1 + here);
    wrap(where, () => bvh8ChildTargets(box)).forEach((t, i) => {
      const from = `${where} child ${i}`;
      if (t.kind === 'primitive') throw new Gfx12Error(`${from}: a triangle child in the TLAS (its leaves are instance nodes)`);
      if (t.size !== 1) throw new Gfx12Error(`${from}: node_size must be 1, got ${t.size}`);
      claim(t.node, t.kind === 'box' ? 'TLAS' : 'instance', from);
      if (t.kind === 'box') return void todo.push({ node: t.node, above: here });
      const inst = wrap(`instance node ${t.node}`, () => decodeGfx12InstanceNode(bvh8NodeWords(words, t.node)));
      const root = inst.bvhAddr / BVH_ADDR_UNITS_PER_NODE;
      if (!Number.isInteger(root)) throw new Gfx12Error(`instance node ${t.node}: bvh_addr ${inst.bvhAddr} is not a whole node (a multiple of ${BVH_ADDR_UNITS_PER_NODE})`);
      if (root >= count) throw new Gfx12Error(`instance node ${t.node}: bvh_addr points at node ${root}, past the image's ${count} nodes`);
      instances.set(t.node, inst);
      below.set(t.node, here);
    });
  }
  // Each BLAS once: its extent from its box nodes, then decodeBvh8Image on its nodes with offsets made relative.
  const roots = [...new Set([...instances.values()].map((i) => i.bvhAddr / BVH_ADDR_UNITS_PER_NODE))].sort((a, b) => a - b);
  const blas = roots.map((root) => {
    const name = `the BLAS at node ${root}`;
    if (owner[root] !== undefined) throw new Gfx12Error(`an instance's bvh_addr points at node ${root}, a node of the ${owner[root]}`);
    const boxes = [root];
    const seen = new Set(boxes);
    let end = root + 1;
    for (let q = 0; q < boxes.length; q++) {
      const where = `${name}: box node ${boxes[q]}`;
      if (boxes[q]! >= count) throw new Gfx12Error(`${where} is past the image's ${count} nodes`);
      const box = wrap(where, () => decodeGfx12BoxNode(bvh8NodeWords(words, boxes[q]!)));
      wrap(where, () => bvh8ChildTargets(box)).forEach((t, i) => {
        if (t.kind === 'instance') throw new Gfx12Error(`${where} child ${i}: an instance node inside a BLAS (one instance level only)`);
        if (t.node < root) throw new Gfx12Error(`${where} child ${i} points at node ${t.node}, before its BLAS`);
        end = Math.max(end, t.node + t.size);
        if (t.kind === 'box' && !seen.has(t.node)) {
          seen.add(t.node);
          boxes.push(t.node);
        }
      });
    }
    if (end > count) throw new Gfx12Error(`${name} reaches node ${end - 1}, past the image's ${count} nodes`);
    const sub = words.slice(root * GFX12_NODE_WORDS, end * GFX12_NODE_WORDS);
    for (const b of boxes) for (const f of [0, 1]) if (sub[(b - root) * GFX12_NODE_WORDS + f]! !== 0) sub[(b - root) * GFX12_NODE_WORDS + f]! -= root * OFFSET_UNITS_PER_NODE;
    const decoded = wrap(`${name} (its node numbers from its root)`, () => decodeBvh8Image(sub));
    for (let n = root; n < end; n++) claim(n, name, name);
    return { root, nodes: end - root, decoded };
  });
  const depth = new Map(blas.map((b) => [b.root, b.decoded.worstCaseStack]));
  for (const [node, inst] of instances) worst = Math.max(worst, below.get(node)! + depth.get(inst.bvhAddr / BVH_ADDR_UNITS_PER_NODE)!);
  const unreached = owner.filter((o) => o === undefined).length;
  if (unreached > 0) throw new Gfx12Error(`${unreached} of the image's ${count} nodes are not reached from the root`);
  if (worst > STACK_DEPTH) throw new Gfx12Error(`the image can need ${worst} traversal stack entries, the stack holds ${STACK_DEPTH}`);
  return { tlasBoxNodes, instances, blas, worstCaseStack: worst };
}
