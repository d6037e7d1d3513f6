// The golden BVH8 traversal: a ray through a GFX12 BVH8 memory image, step for step as the hardware must do it (docs/bvh.md).
import { fcmp, FLAG_POSITIVE, POS_INF } from '../../golden/float32.ts';
import { childOrder, rayInverse, slabTest, type SlabResult } from '../../golden/rayBox.ts';
import { accepts, boxClamp, isAnyHit, maskAccepts, queryOf } from '../../golden/rayAccept.ts';
import { missResult, rayIsValid, type TraceResult, type TriangleTestFn, type Vec3 } from '../../golden/rayCaster.ts';
import type { RayQuery } from '../../golden/rayQuery.ts';
import { testTriangleWatertight } from '../../golden/watertight.ts';
import { obbRay } from './obbRay.ts';
import { closerHit, enterInstance, instanceHitResult, tryDecode, type Bvh8Hit, type InstanceLevel } from './bvh8Instance.ts';
import { GFX12_NODE_WORDS, OBB_DISABLED, Gfx12Error, decodeGfx12BoxNode, decodeGfx12PrimitiveNode, gfx12ChildBox, type Gfx12Triangle } from '../gfx12.ts';
import { STACK_DEPTH } from '../bvh4.ts';
import { bvh8ChildTargets, bvh8NodeWords } from '../bvh8Image.ts';

export interface Bvh8Counters {
  /** Box nodes popped and tested (entries skipped by the tnear check are not counted). */
  readonly nodeTests: number;
  /** Ray–box slab tests: the children of the tested box nodes. */
  readonly boxTests: number;
  /** Primitive (triangle-pair) nodes read. */
  readonly primitiveNodes: number;
  /** Ray–triangle tests: the active triangles of the pairs read. */
  readonly triangleTests: number;
  /** The most entries the stack held at once. */
  readonly maxStack: number;
  /** Instance nodes read (a two-level image; docs/bvh.md "Instances"). */
  readonly instanceNodes: number;
}

export interface Bvh8TraceResult extends TraceResult {
  readonly counters: Bvh8Counters;
  /** Set (only) when the ray reached something it could not read; the ray stops and answers a miss. */
  readonly fault?: true;
  /**
   * A hit in an instance: its user_data (the instance id), `triangle` then the primitive index in its mesh;
   * NO_INSTANCE (0xFFFFFFFF) for a hit outside any instance; absent on a miss.
   */
  readonly instance?: number;
}

export interface Bvh8CastOptions {
  /**
   * Stop at the first pair with an accepted hit and answer that hit (the closer of the pair's two; default false:
   * closest hit). The query's ANY_HIT flag does the same; either one is enough.
   */
  readonly anyHit?: boolean;
  /** The ray query (docs/rays.md); default DEFAULT_RAY_QUERY, the plain `trace`. */
  readonly query?: RayQuery;
  /** The ray–triangle test (default testTriangleWatertight, as seed 001's RT.TRI). */
  readonly triangleTest?: TriangleTestFn;
  /** Box nodes with an OBB matrix index rotate the ray (default true); false: such a node is a fault. */
  readonly orientedBoxes?: boolean;
  /** Instance children descend into their BLAS (default true); false: a box node with one is a fault. */
  readonly instances?: boolean;
}

/**
 * What the hardware's Bvh8IcCore reads: one- and two-level images, with axis-aligned and oriented boxes (ObbRayRotate
 * and RayTransform are in its pipeline); the ISS and the core's checks cast with these options to agree with it.
 */
export const BVH8_CORE_FEATURES: Pick<Bvh8CastOptions, 'orientedBoxes' | 'instances'> = { orientedBoxes: true, instances: true };

/** A traversal stack entry: a box node, or the first primitive node of a leaf, with the entry distance of its box. */
interface Entry {
  readonly primitive: boolean;
  readonly node: number;
  readonly tnear: number;
  /** An instance node (a TLAS leaf of a two-level image). */
  readonly instance?: boolean;
}

/**
 * Cast one ray through a BVH8 image (encodeBvh8Image), reading nothing else. Triangle indices in the result are
 * the primitive indices stored in the image (the original scene's), the shader id its geometry index. A ray that
 * reaches a node it cannot read (past the image, an unknown node type, an undecodable node, an OBB matrix index
 * that is neither 0–103 nor 0x7F, as many node reads at one level (the TLAS, or one visit of a BLAS) as the image
 * has nodes, a stack overflow) stops with a miss
 * marked `fault`. A box node with OBB on tests its children with the ray rotated into its frame (obbRay). In a
 * two-level image (buildBvh8Instanced) an instance entry moves the ray into the instance's object space for its
 * BLAS and back to world space when the stack returns below the BLAS's entries (bvh8Instance.ts); its hits name
 * the instance.
 */
export function castRayBvh8(image: Uint32Array, o: Vec3, d: Vec3, opts: Bvh8CastOptions = {}): Bvh8TraceResult {
  if (image.length % GFX12_NODE_WORDS !== 0) throw new Gfx12Error(`a BVH8 image is whole 128-byte nodes (${GFX12_NODE_WORDS} words each), got ${image.length} words`);
  const nodeCount = image.length / GFX12_NODE_WORDS;
  const counters = { nodeTests: 0, boxTests: 0, primitiveNodes: 0, triangleTests: 0, maxStack: 0, instanceNodes: 0 };
  if (!rayIsValid(o, d) || nodeCount === 0) return { ...missResult(), counters };
  const test = opts.triangleTest ?? testTriangleWatertight;
  const q = queryOf(opts.query);
  const anyHit = opts.anyHit === true || isAnyHit(q);
  const world = { o, d, inv: rayInverse(d) };
  let inv = world.inv;
  const stack: Entry[] = [{ primitive: false, node: 0, tnear: 0 }];
  counters.maxStack = 1;
  let best: Bvh8Hit | undefined;
  // Inside a BLAS: the instance and where its stack entries begin (one instance level; o, d, inv are then its object-space ray).
  let level: InstanceLevel | undefined;
  // In a tree every node is read at most once per level: the TLAS once per ray, a BLAS once per visit. More reads at one
  // level mean a cycle in a malformed image. The count is per level so that a TLAS cycle through an instance still ends.
  let reads = 0;
  let tlasReads = 0;
  const readable = (node: number): boolean => node < nodeCount && reads < nodeCount;
  while (stack.length > 0) {
    // The BLAS's entries are used up: back to the world ray.
    if (level !== undefined && stack.length === level.stackBase) [level, o, d, inv, reads] = [undefined, world.o, world.d, world.inv, tlasReads];
    const e = stack.pop()!;
    if (best !== undefined && fcmp(e.tnear, best.test.t).flags === FLAG_POSITIVE) continue;
    if (e.instance) {
      // Only the TLAS may hold instances.
      if (level !== undefined || !readable(e.node)) return faulted(counters);
      counters.instanceNodes++;
      reads++;
      const clamp = boxClamp(q, best === undefined ? POS_INF : best.test.t);
      const entry = enterInstance(image, e.node, world.o, world.d, clamp.limit, clamp.lower, q);
      if (entry.kind === 'fault') return faulted(counters);
      if (entry.kind === 'miss') continue;
      level = { ...entry.level, stackBase: stack.length };
      [o, d, inv] = [entry.level.ray.origin, entry.level.ray.dir, entry.level.ray.invDir];
      [tlasReads, reads] = [reads, 0];
      stack.push({ primitive: false, node: entry.root, tnear: entry.tnear });
      counters.maxStack = Math.max(counters.maxStack, stack.length);
      continue;
    }
    if (e.primitive) {
      // A leaf's pairs run over consecutive primitive nodes up to the pair with prim_range_stop.
      for (let node = e.node; ; node++) {
        if (!readable(node)) return faulted(counters);
        const decoded = tryDecode(() => decodeGfx12PrimitiveNode(bvh8NodeWords(image, node)));
        if (decoded === undefined) return faulted(counters);
        counters.primitiveNodes++;
        reads++;
        const tris = decoded.triangles;
        for (let p = 0; p < tris.length; p += 2) {
          // One pair: tri0 then tri1, as the two triangle tests of one step.
          for (const tri of tris.slice(p, p + 2)) {
            counters.triangleTests++;
            const [v0, v1, v2] = tri.vertices;
            const r = test(o, d, v0, v1, v2);
            // The geometry mask was checked at the box child's cull_mask (a primitive node does not mix masks); the face in object space.
            if (accepts(q, r, 0xff, tri.doubleSided === false) && closerHit(r.t, tri, level, best)) best = { triangle: tri, test: r, level };
          }
          if (anyHit && best !== undefined) return { ...instanceHitResult(world.o, world.d, best), counters };
        }
        if (decoded.rangeStop) break;
      }
      continue;
    }
    if (!readable(e.node)) return faulted(counters);
    const box = tryDecode(() => decodeGfx12BoxNode(bvh8NodeWords(image, e.node)));
    const targets = box && tryDecode(() => bvh8ChildTargets(box));
    // The children's boxes are stored in the node's OBB frame: the ray is rotated once for all of them.
    const frame = box && obbRay(box.obbMatrixIndex, o, d, inv);
    if (box === undefined || targets === undefined || frame === undefined) return faulted(counters);
    if (opts.orientedBoxes === false && box.obbMatrixIndex !== OBB_DISABLED) return faulted(counters);
    if (opts.instances === false && targets.some((t) => t.kind === 'instance')) return faulted(counters);
    // A child box that does not decode faults the node before it is tested, as the core's decoder refuses it: not counted.
    const childBoxes = box.children.map((_, i) => tryDecode(() => gfx12ChildBox(box, i)));
    if (childBoxes.some((b) => b === undefined)) return faulted(counters);
    counters.nodeTests++;
    reads++;
    const { lower, limit } = boxClamp(q, best === undefined ? POS_INF : best.test.t);
    const results: (SlabResult | undefined)[] = [];
    childBoxes.forEach((childBox, i) => {
      counters.boxTests++;
      // A child whose cull_mask (the OR of the masks beneath it) shares no bit with the ray mask is passed by as a miss.
      const r = slabTest(frame.origin, frame.inv, childBox!, limit, lower);
      results.push(maskAccepts(q, box.children[i]!.cullMask) ? r : { ...r, hit: false });
    });
    // Nearest first (image_bvh8_intersect_ray's order): push in reverse so the nearest is popped next.
    const order = childOrder(results);
    if (stack.length + order.length > STACK_DEPTH) return faulted(counters);
    for (let k = order.length - 1; k >= 0; k--) {
      const slot = order[k]!;
      stack.push({ primitive: targets[slot]!.kind === 'primitive', node: targets[slot]!.node, tnear: results[slot]!.tnear, instance: targets[slot]!.kind === 'instance' });
    }
    counters.maxStack = Math.max(counters.maxStack, stack.length);
  }
  return { ...(best === undefined ? missResult() : instanceHitResult(world.o, world.d, best)), counters };
}

const faulted = (counters: Bvh8Counters): Bvh8TraceResult => ({ ...missResult(), counters, fault: true });
