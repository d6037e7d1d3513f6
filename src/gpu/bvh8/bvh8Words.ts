// The BVH8 core's word layouts: a traversal stack entry, a child reference, the box engine's tag, a decoded primitive
// node waiting in the pair queue, the triangle engine's tag. Each is a Bundle, packed first field lowest (packBits).
import { Bool, Bundle, UInt, Vec } from '../../hdl/index.ts';
import { GFX12_PRIM_TRIANGLES, GFX12_PRIM_VERTICES } from './gfx12PrimitiveDecoder.ts';
import { BVH8_CHILDREN } from './rayBox8.ts';

/** A node to visit: its index in the image and whether it is the first primitive node of a leaf or an instance node (else a box node). */
export const Bvh8ChildRef = (indexBits: number) => Bundle({ index: UInt(indexBits), primitive: Bool, instance: Bool });

/** A traversal stack entry (castRayBvh8's Entry): the tnear of the child's box, then the child. */
export const Bvh8StackEntry = (indexBits: number) => Bundle({ tnear: UInt(32), index: UInt(indexBits), primitive: Bool, instance: Bool });

/** What rides through the box engine with a node: the children it may push (child 0 lowest), then the ray slot. */
export const Bvh8BoxTag = (indexBits: number, slotBits: number) => Bundle({ children: Vec(BVH8_CHILDREN, Bvh8ChildRef(indexBits)), slot: UInt(slotBits) });

/** A decoded primitive node in the pair queue: the Gfx12PrimitiveDecoder's fields the pairs need, and the ray slot. */
export const PairQueueEntry = (slotBits: number) =>
  Bundle({
    vertices: UInt(96 * GFX12_PRIM_VERTICES),
    vertexIndex: UInt(12 * GFX12_PRIM_TRIANGLES),
    active: UInt(GFX12_PRIM_TRIANGLES),
    /** Bit i: triangle slot i is double-sided (else the query's culling applies to it). */
    doubleSided: UInt(GFX12_PRIM_TRIANGLES),
    primitiveIndex: UInt(32 * GFX12_PRIM_TRIANGLES),
    geometryIndex: UInt(32 * GFX12_PRIM_TRIANGLES),
    pairCount: UInt(4),
    slot: UInt(slotBits),
  });

/** What rides through the triangle engine with a pair: the two triangles' geometry indices (the shader ids), the ray slot, and its triangle tests (1 or 2, counted as it comes out). */
export const PairTag = (slotBits: number) => Bundle({ geometry: Vec(2, UInt(32)), slot: UInt(slotBits), tests: UInt(2) });
