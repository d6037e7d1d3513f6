// The GFX12 box-node decoder: one 128-byte BVH8 box node per cycle in, its header fields and 8 child boxes in binary32 (rounded outward) out, 4 cycles later.
import { Bool, UInt, cat, defineModule, input, lit, mux, output, type UIntValue } from '../../hdl/index.ts';
import { delay, delayValid } from '../../hdl/lib/index.ts';
import { axisSetup, outwardBound, registerSetup } from './outwardBound.ts';

export const GFX12_BOX_CHILDREN = 8;
/** Input register (the per-axis setup), the window sum, the normalization, the rounding. */
export const GFX12_BOX_DECODER_LATENCY = 4;

const NODE_BITS = 1024;
const CHILD_AT = 256;
const CHILD_BITS = 96;
const AXES = ['x', 'y', 'z'] as const;

/** The 12-bit fields of a child entry, as offsets into its 96 bits (seed 000; max_z after max_y, docs/spec-deviations.md). */
const QMIN_AT = [0, 12, 32] as const;
const QMAX_AT = [44, 64, 76] as const;

export const Gfx12BoxDecoder = defineModule(
  'Gfx12BoxDecoder',
  () => ({
    in_valid: input(Bool),
    /** The node's 32 little-endian words: bit i of the node is bit i of this port. */
    node: input(UInt(NODE_BITS)),
    // GFX12_BOX_DECODER_LATENCY cycles later:
    out_valid: output(Bool),
    /** child_count_minus_one > 7 or an infinite or NaN origin: no child is valid. */
    error: output(Bool),
    /** Units of 8 bytes. */
    internal_child_offset: output(UInt(32)),
    primitive_child_offset: output(UInt(32)),
    /** The word amdvlk uses for the parent id. */
    parent_word: output(UInt(32)),
    obb_matrix_index: output(UInt(32)),
    /** Bit c: child c exists (c < child count). */
    child_valid: output(UInt(GFX12_BOX_CHILDREN)),
    /** Child c's field at [4c + 3 : 4c] (node_size in units of 128 bytes). */
    node_type: output(UInt(4 * GFX12_BOX_CHILDREN)),
    node_size: output(UInt(4 * GFX12_BOX_CHILDREN)),
    cull_flags: output(UInt(4 * GFX12_BOX_CHILDREN)),
    /** Child c's at [8c + 7 : 8c]. */
    cull_mask: output(UInt(8 * GFX12_BOX_CHILDREN)),
    /** Child c's min x, y, z, max x, y, z (binary32) at [192c + 32k + 31 : 192c + 32k], the layout of RayBox4's boxes. */
    boxes: output(UInt(6 * 32 * GFX12_BOX_CHILDREN)),
  }),
  (m, io) => {
    const n = io.node;
    const L = GFX12_BOX_DECODER_LATENCY;
    const field = (at: number, width: number): UIntValue => n.bits(at + width - 1, at);
    const child = (c: number, at: number, width: number): UIntValue => field(CHILD_AT + CHILD_BITS * c + at, width);

    // ------------------------------------------------------------------ header fields ride beside the boxes
    const countMinusOne = field(220, 4);
    // As the host: more than 8 children, or an infinite or NaN origin (gfx12ChildBox cannot decode it).
    const originInfOrNaN = [0, 1, 2].map((a) => field(96 + 32 * a + 23, 8).eq(0xff)).reduce((x, y) => x.or(y));
    const error = countMinusOne.gt(GFX12_BOX_CHILDREN - 1).or(originInfOrNaN);
    const valid = mux(error, lit(0, GFX12_BOX_CHILDREN), lit(0xff, GFX12_BOX_CHILDREN).shr(lit(GFX12_BOX_CHILDREN - 1, 4).sub(countMinusOne).trunc(3)));
    const kids = [...Array(GFX12_BOX_CHILDREN).keys()].reverse();
    io.internal_child_offset.set(delay(m, field(0, 32), L, 'internal_child_offset'));
    io.primitive_child_offset.set(delay(m, field(32, 32), L, 'primitive_child_offset'));
    io.parent_word.set(delay(m, field(64, 32), L, 'parent_word'));
    io.obb_matrix_index.set(delay(m, field(224, 32), L, 'obb_matrix_index'));
    io.error.set(delay(m, error, L, 'error'));
    io.child_valid.set(delay(m, valid, L, 'child_valid'));
    io.cull_flags.set(delay(m, cat(...kids.map((c) => child(c, 24, 4))), L, 'cull_flags'));
    io.cull_mask.set(delay(m, cat(...kids.map((c) => child(c, 56, 8))), L, 'cull_mask'));
    io.node_type.set(delay(m, cat(...kids.map((c) => child(c, 88, 4))), L, 'node_type'));
    io.node_size.set(delay(m, cat(...kids.map((c) => child(c, 92, 4))), L, 'node_size'));

    // ------------------------------------------------------------------ cycle 1: per axis, what the 8 children share
    const setups = AXES.map((axis, a) => registerSetup(m, axisSetup(field(96 + 32 * a, 32), field(192 + 8 * a, 8)), `${axis}_setup`));
    const qmin = AXES.map((axis, a) => kids.map((c) => m.regNext(child(c, QMIN_AT[a], 12).zext(13), { name: `c${c}_${axis}_qmin` })).reverse());
    const qmaxPlusOne = AXES.map((axis, a) => kids.map((c) => m.regNext(child(c, QMAX_AT[a], 12).zext(13).add(1), { name: `c${c}_${axis}_qmax1` })).reverse());

    // ------------------------------------------------------------------ cycles 2 to 4: 48 bounds rounded outward
    const boxes = kids.map((c) => {
      const mins = AXES.map((axis, a) => outwardBound(m, setups[a]!, qmin[a]![c]!, false, `c${c}_min_${axis}`));
      const maxs = AXES.map((axis, a) => outwardBound(m, setups[a]!, qmaxPlusOne[a]![c]!, true, `c${c}_max_${axis}`));
      return cat(...[...mins, ...maxs].reverse());
    });
    io.boxes.set(cat(...boxes));
    io.out_valid.set(delayValid(m, io.in_valid, L, 'valid'));
  },
);
