// The BVH core's word layouts: a BVHNode4 as the node memory holds it, a traversal stack entry, a leaf queue entry, the
// ray–box unit's tag. Each is a Bundle, packed first field lowest (packBits), so a field is named where it is read.
import { Bool, Bundle, UInt, Vec } from '../../hdl/index.ts';
import { Float3 } from '../icCore/vec3.ts';

export const CHILDREN = 4;

/** A child's box: min x, y, z, then max x, y, z (192 bits). */
export const ChildBox = Bundle({ min: Float3, max: Float3 });

/** The four child boxes of a node, child c at [192c + 191 : 192c]: the ray–box unit's `boxes`. */
export const NodeBoxes = Vec(CHILDREN, ChildBox);

/** A child's flags in the node word: bit 1 says the child is a leaf (its index names a TriRange); 0 = no child. */
export const ChildFlags = UInt(2);

/** A BVHNode4 as the node memory answers: the boxes, then child_idx[0..3], then child_flags[0..3]. */
export const NodeWord = (indexBits: number) => Bundle({ boxes: NodeBoxes, childIndex: Vec(CHILDREN, UInt(indexBits)), childFlags: Vec(CHILDREN, ChildFlags) });

/** A node or TriRange to visit: the child's index, whether it is a leaf, and the ray's tnear of its box. */
export const ChildRef = (indexBits: number) => Bundle({ index: UInt(indexBits), leaf: Bool });

/** A traversal stack entry: tnear (to skip the entry once a closer hit is known), then the child it names. */
export const StackEntry = (indexBits: number) => Bundle({ tnear: UInt(32), index: UInt(indexBits), leaf: Bool });

/** What rides through the ray–box unit with a node: the children it may push (child 0 lowest), then the ray slot. */
export const BoxTag = (indexBits: number, slotBits: number) => Bundle({ children: Vec(CHILDREN, ChildRef(indexBits)), slot: UInt(slotBits) });

/** A TriRange waiting for the triangle walk: its count and first triangle, and the ray slot. */
export const LeafEntry = (triangleBits: number, slotBits: number) => Bundle({ count: UInt(triangleBits), first: UInt(triangleBits), slot: UInt(slotBits) });

/** A TriRange as the TriRange memory holds it: the count lowest, then the first triangle. */
export const TriRange = (triangleBits: number) => Bundle({ count: UInt(triangleBits), first: UInt(triangleBits) });
