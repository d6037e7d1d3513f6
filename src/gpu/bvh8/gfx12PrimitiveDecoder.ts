// The GFX12 triangle-pair (primitive) node decoder: one 128-byte node per cycle in; its 16 vertices, 16 triangle slots (vertex indices, flags, geometry and primitive indices) out, 3 cycles later.
import { Bool, UInt, cat, defineModule, input, lit, mux, output, type BoolValue, type UIntValue } from '../../hdl/index.ts';
import { delayValid } from '../../hdl/lib/index.ts';
import { lowMask32, read32At } from './read32At.ts';

/** 4-bit vertex indices: the decoder reads all 16 positions (index 15 only reached by a malformed node). */
export const GFX12_PRIM_VERTICES = 16;
/** 8 pairs of 2. */
export const GFX12_PRIM_TRIANGLES = 16;
/** Header decode and field positions, field reads (barrel shifts), assembly. */
export const GFX12_PRIMITIVE_DECODER_LATENCY = 3;

const NODE_BITS = 1024;
const PAIR_DESC_BITS = 29;
/** Zeros below the node so that a position below bit 0 (a geometry index of a malformed node) reads 0, as the host decoder does. */
const BELOW = 512;
/** Positions in the padded node (12 bits: the farthest, vertex 15's z, is below 2,200). */
const POS_BITS = 12;
const AXES = ['x', 'y', 'z'] as const;

const range = (n: number): number[] => [...Array(n).keys()];
/** Values packed with element 0 in the low bits. */
const pack = (vs: readonly UIntValue[]): UIntValue => cat(...[...vs].reverse());

export const Gfx12PrimitiveDecoder = defineModule(
  'Gfx12PrimitiveDecoder',
  () => ({
    in_valid: input(Bool),
    /** The node's 32 little-endian words: bit i of the node is bit i of this port. */
    node: input(UInt(NODE_BITS)),
    // GFX12_PRIMITIVE_DECODER_LATENCY cycles later:
    out_valid: output(Bool),
    /** The host decoder refuses the node: vertex_type 1, vertex bits + trailing zeros > 32, or a procedural triangle (v0 = v1 = 0xF). */
    error: output(Bool),
    /** triangle_pair_count, 1 to 8. */
    pair_count: output(UInt(4)),
    /** prim_range_stop of the last pair. */
    range_stop: output(Bool),
    /** Vertex k's x, y, z (binary32) at [96k + 32a + 31 : 96k + 32a]. */
    vertices: output(UInt(96 * GFX12_PRIM_VERTICES)),
    /** Bit i: triangle slot i (pair i/2; tri0 even, tri1 odd) is in a used pair and its vertex indices are not all 0. */
    tri_active: output(UInt(GFX12_PRIM_TRIANGLES)),
    /** Slot i's v0, v1, v2 at [12i + 4j + 3 : 12i + 4j]. */
    tri_vertex_index: output(UInt(12 * GFX12_PRIM_TRIANGLES)),
    tri_opaque: output(UInt(GFX12_PRIM_TRIANGLES)),
    tri_double_sided: output(UInt(GFX12_PRIM_TRIANGLES)),
    /** Slot i's at [32i + 31 : 32i]. */
    geometry_index: output(UInt(32 * GFX12_PRIM_TRIANGLES)),
    primitive_index: output(UInt(32 * GFX12_PRIM_TRIANGLES)),
  }),
  (m, io) => {
    const n = io.node;
    const field = (at: number, width: number): UIntValue => n.bits(at + width - 1, at);
    const w12 = (v: UIntValue): UIntValue => v.zext(POS_BITS);

    // ------------------------------------------------------------------ cycle 1: the 52-bit header, every field's position
    const vertexBits = AXES.map((_, a) => field(5 * a, 5).zext(6).add(1));
    const tz = field(15, 5).zext(6);
    const geometryBaseBits = cat(field(20, 4), lit(0, 1)).zext(6);
    const geometryBits = cat(field(24, 4), lit(0, 1)).zext(6);
    const pairsMinusOne = field(28, 3);
    const vertexType = field(31, 1);
    const primitiveBaseBits = field(32, 5).zext(6);
    const primitiveBits = field(37, 5).zext(6);
    const mid = w12(field(42, 10)).add(BELOW);
    // prefix bits = 32 − tz − vertex bits; negative is the host decoder's error.
    const sumBits = vertexBits.map((b) => b.zext(7).add(tz.zext(7)));
    const prefixBits = sumBits.map((s) => lit(32, 7).sub(s).trunc(6));
    const headerError = vertexType.eq(1).or(sumBits.map((s) => s.gt(32)).reduce((a, b) => a.or(b)));
    const prefixAt = [w12(lit(52 + BELOW, POS_BITS))];
    for (const a of [0, 1, 2]) prefixAt.push(prefixAt[a]!.add(w12(prefixBits[a]!)));
    const dataAt = prefixAt[3]!;
    const vertexSize = w12(vertexBits[0]!).add(w12(vertexBits[1]!)).add(w12(vertexBits[2]!));
    const axisOffset = [lit(0, POS_BITS), w12(vertexBits[0]!), w12(vertexBits[0]!).add(w12(vertexBits[1]!))];
    const vertexAt = range(GFX12_PRIM_VERTICES).map((k) => AXES.map((_, a) => dataAt.add(vertexSize.mul(lit(k, POS_BITS))).add(axisOffset[a]!)));
    // Geometry indices grow downward from the midpoint (the base just below it), primitive indices upward (the base at it).
    const geometryAt = range(GFX12_PRIM_TRIANGLES).map((i) => mid.sub(w12(geometryBaseBits)).sub(w12(geometryBits).mul(lit(i, POS_BITS))));
    const primitiveAt = range(GFX12_PRIM_TRIANGLES).map((i) => (i === 0 ? mid : mid.add(w12(primitiveBaseBits)).add(w12(primitiveBits).mul(lit(i - 1, POS_BITS)))));

    const r1 = <T extends UIntValue>(v: T, name: string): T['_self'] => m.regNext(v, { name: `s1_${name}` });
    const s1 = {
      node: r1(n, 'node'),
      headerError: r1(headerError, 'header_error'),
      vertexBits: vertexBits.map((b, a) => r1(b, `vertex_bits_${AXES[a]}`)),
      prefixBits: prefixBits.map((b, a) => r1(b, `prefix_bits_${AXES[a]}`)),
      pairsMinusOne: r1(pairsMinusOne, 'pairs_minus_one'),
      geometryBaseBits: r1(geometryBaseBits, 'geometry_base_bits'),
      geometryBits: r1(geometryBits, 'geometry_bits'),
      primitiveBaseBits: r1(primitiveBaseBits, 'primitive_base_bits'),
      primitiveBits: r1(primitiveBits, 'primitive_bits'),
      prefixAt: prefixAt.slice(0, 3).map((p, a) => r1(p, `prefix_at_${AXES[a]}`)),
      vertexAt: vertexAt.map((v, k) => v.map((p, a) => r1(p, `v${k}_${AXES[a]}_at`))),
      geometryAt: geometryAt.map((p, i) => r1(p, `geometry${i}_at`)),
      primitiveAt: primitiveAt.map((p, i) => r1(p, `primitive${i}_at`)),
    };

    // ------------------------------------------------------------------ cycle 2: 83 fields read at their positions
    const padded = cat(s1.node, lit(0, BELOW));
    const read32 = (pos: UIntValue): UIntValue => read32At(padded, pos);
    const r2 = <T extends UIntValue>(v: T, name: string): T['_self'] => m.regNext(v, { name: `s2_${name}` });
    const s2 = {
      prefix: s1.prefixAt.map((p, a) => r2(read32(p), `prefix_${AXES[a]}`)),
      payload: s1.vertexAt.map((v, k) => v.map((p, a) => r2(read32(p), `v${k}_${AXES[a]}_payload`))),
      geometry: s1.geometryAt.map((p, i) => r2(read32(p), `geometry${i}_raw`)),
      primitive: s1.primitiveAt.map((p, i) => r2(read32(p), `primitive${i}_raw`)),
      descs: range(GFX12_PRIM_TRIANGLES / 2).map((p) => r2(s1.node.bits(NODE_BITS - PAIR_DESC_BITS * p - 1, NODE_BITS - PAIR_DESC_BITS * (p + 1)), `pair${p}_desc`)),
      headerError: r2(s1.headerError, 'header_error'),
      vertexBits: s1.vertexBits.map((b, a) => r2(b, `vertex_bits_${AXES[a]}`)),
      prefixBits: s1.prefixBits.map((b, a) => r2(b, `prefix_bits_${AXES[a]}`)),
      pairsMinusOne: r2(s1.pairsMinusOne, 'pairs_minus_one'),
      geometryBaseBits: r2(s1.geometryBaseBits, 'geometry_base_bits'),
      geometryBits: r2(s1.geometryBits, 'geometry_bits'),
      primitiveBaseBits: r2(s1.primitiveBaseBits, 'primitive_base_bits'),
      primitiveBits: r2(s1.primitiveBits, 'primitive_bits'),
    };

    // ------------------------------------------------------------------ cycle 3: vertices, indices and triangle slots assembled
    // value = prefix · 2^(32 − prefix bits) | payload · 2^tz: the payload's vertex bits moved to the top, then down by the prefix bits.
    const vertices = s2.payload.map((v) =>
      pack(v.map((word, a) => s2.prefix[a]!.shl(lit(32, 6).sub(s2.prefixBits[a]!)).or(word.shl(lit(32, 6).sub(s2.vertexBits[a]!)).shr(s2.prefixBits[a]!)))),
    );
    /** Index i ≥ 1 from its stored low bits: read(bits) if bits ≥ base bits, else read(bits) | (base & ~mask(bits)) (seed 000). */
    const indices = (raw: readonly UIntValue[], baseBits: UIntValue, bits: UIntValue): UIntValue[] => {
      const base = raw[0]!.and(lowMask32(baseBits));
      const mask = lowMask32(bits);
      return raw.map((r, i) => (i === 0 ? base : mux(bits.ge(baseBits), r.and(mask), r.and(mask).or(base.and(mask.not())))));
    };
    const geometry = indices(s2.geometry, s2.geometryBaseBits, s2.geometryBits);
    const primitive = indices(s2.primitive, s2.primitiveBaseBits, s2.primitiveBits);
    /** Slot i's descriptor fields: tri1 (odd slots) right after prim_range_stop, tri0 after it. */
    const slots = range(GFX12_PRIM_TRIANGLES).map((i) => {
      const d = s2.descs[i >> 1]!;
      const at = i % 2 === 1 ? 1 : 15;
      const refs = cat(d.bits(at + 13, at + 10), d.bits(at + 9, at + 6), d.bits(at + 5, at + 2));
      const used = lit(i >> 1, 3).le(s2.pairsMinusOne);
      const active = used.and(refs.ne(0));
      const procedural: BoolValue = active.and(refs.bits(3, 0).eq(0xf)).and(refs.bits(7, 4).eq(0xf));
      return { refs, active, procedural, doubleSided: d.bit(at), opaque: d.bit(at + 1) };
    });
    const lastDesc = s2.descs.reduce((acc, d, p) => mux(s2.pairsMinusOne.eq(p), d, acc));
    const error = s2.headerError.or(slots.map((s) => s.procedural).reduce((a, b) => a.or(b)));

    const out = <T extends UIntValue>(v: T, name: string): T['_self'] => m.regNext(v, { name: `out_${name}` });
    io.vertices.set(out(pack(vertices), 'vertices'));
    io.geometry_index.set(out(pack(geometry), 'geometry_index'));
    io.primitive_index.set(out(pack(primitive), 'primitive_index'));
    io.tri_vertex_index.set(out(pack(slots.map((s) => s.refs)), 'tri_vertex_index'));
    io.tri_active.set(out(pack(slots.map((s) => s.active)), 'tri_active'));
    io.tri_opaque.set(out(pack(slots.map((s) => s.opaque)), 'tri_opaque'));
    io.tri_double_sided.set(out(pack(slots.map((s) => s.doubleSided)), 'tri_double_sided'));
    io.range_stop.set(out(lastDesc.bit(0), 'range_stop'));
    io.pair_count.set(out(s2.pairsMinusOne.zext(4).add(1), 'pair_count'));
    io.error.set(out(error, 'error'));
    io.out_valid.set(delayValid(m, io.in_valid, GFX12_PRIMITIVE_DECODER_LATENCY, 'valid'));
  },
);
