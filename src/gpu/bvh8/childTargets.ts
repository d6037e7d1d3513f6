// The box node's child targets in hardware: bvh8ChildTargets (src/bvh/bvh8Image.ts) as logic, and when it refuses the node.
import { lit, mux, type BoolValue, type UIntValue } from '../../hdl/index.ts';
import { BVH8_CHILDREN } from './rayBox8.ts';

/** GFX12 node types of a BVH8 image's children (src/bvh/bvh8Image.ts). */
const BOX_TYPE = 5;
const TRIANGLE_TYPE = 0;
const INSTANCE_TYPE = 6;

/** The Gfx12BoxDecoder outputs the targets are computed from. */
export interface DecodedBoxHeader {
  readonly internalChildOffset: UIntValue;
  readonly primitiveChildOffset: UIntValue;
  readonly childValid: UIntValue;
  readonly nodeType: UIntValue;
  readonly nodeSize: UIntValue;
}

export interface ChildTargets {
  /** Child c's node index (saturated to all ones past 2^indexBits − 1, which is never a loaded node). */
  readonly index: readonly UIntValue[];
  /** Child c is a primitive (triangle) child: its index is a leaf's first primitive node. */
  readonly primitive: readonly BoolValue[];
  /** Child c is an instance node (taken from primitive_child_offset, as a triangle child); never with instances off. */
  readonly instance: readonly BoolValue[];
  /** The host refuses the node: an offset not a whole node, or an existing child of size 0 or of another type. */
  readonly fault: BoolValue;
}

/**
 * Box children take consecutive nodes from internal_child_offset, primitive children from primitive_child_offset, in
 * slot order, each node_size nodes (offsets in 8-byte units: 16 per node). 32-bit sums: 2^28 + 8·15 cannot wrap. With
 * `instances` off an instance child is refused (a core without the instance path).
 */
export function childTargets(h: DecodedBoxHeader, indexBits: number, instances: boolean): ChildTargets {
  let fault: BoolValue = h.internalChildOffset.bits(3, 0).ne(0).or(h.primitiveChildOffset.bits(3, 0).ne(0));
  let nextBox = h.internalChildOffset.bits(31, 4).zext(32);
  let nextPrimitive = h.primitiveChildOffset.bits(31, 4).zext(32);
  const index: UIntValue[] = [];
  const primitive: BoolValue[] = [];
  const instance: BoolValue[] = [];
  for (let c = 0; c < BVH8_CHILDREN; c++) {
    const valid = h.childValid.bit(c);
    const type = h.nodeType.bits(4 * c + 3, 4 * c);
    const size = h.nodeSize.bits(4 * c + 3, 4 * c).zext(32);
    const isBox = type.eq(BOX_TYPE);
    const isTriangle = type.eq(TRIANGLE_TYPE);
    const isInstance = instances ? type.eq(INSTANCE_TYPE) : lit(0, 1).asBool();
    const fromPrimitive = isTriangle.or(isInstance);
    fault = fault.or(valid.and(size.eq(0).or(isBox.not().and(fromPrimitive.not()))));
    const at = mux(isBox, nextBox, nextPrimitive);
    index.push(indexBits >= 32 ? at : mux(at.bits(31, indexBits).orR(), lit(2 ** indexBits - 1, indexBits), at.trunc(indexBits)));
    primitive.push(isTriangle);
    instance.push(isInstance);
    nextBox = mux(valid.and(isBox), nextBox.add(size), nextBox);
    nextPrimitive = mux(valid.and(fromPrimitive), nextPrimitive.add(size), nextPrimitive);
  }
  return { index, primitive, instance, fault };
}
