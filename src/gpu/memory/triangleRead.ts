// The triangle read port: an IC core asks its triangle memory for one triangle id per cycle and gets the triangle back.
import { Bool, Bundle, UInt, flip } from '../../hdl/index.ts';

/** A lookup of one triangle id (one per cycle). */
export const TriangleRequest = (idBits: number) => Bundle({ valid: Bool, id: UInt(idBits) });

/**
 * The answer, TRIANGLE_MEMORY_LATENCY cycles after its request: `not_valid` (with `valid`) when the id was past
 * the loaded triangles (the data are then 0); x [31:0], y [63:32], z [95:64] of each vertex, the shader id, and
 * from the shader word (docs/rays.md) the geometry mask and whether the triangle is one-sided.
 */
export const TriangleAnswer = Bundle({
  valid: Bool,
  v0: UInt(96),
  v1: UInt(96),
  v2: UInt(96),
  shader: UInt(32),
  /** The geometry mask (the shader word holds it inverted). */
  mask: UInt(8),
  one_sided: Bool,
  not_valid: Bool,
});

/**
 * As the core drives it (an `output` at the core, an `input` at the memory): the request out, the answer
 * flipped back. Flattened `req_valid`, `req_id`, `resp_valid`, `resp_v0` … `resp_not_valid` under the port's name.
 */
export const TriangleRead = (idBits: number) => Bundle({ req: TriangleRequest(idBits), resp: flip(TriangleAnswer) });
