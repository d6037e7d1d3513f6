// The scene image load port: the memory controller streams the image, the triangle memories take it.
import { Bool, Bundle, UInt, flip } from '../../hdl/index.ts';

/**
 * The image word by word, as the loader (memory controller) drives it: an `output` there, an `input` at
 * the taker (triangle memory, IC system), whose verdict comes back on the flipped fields.
 */
export const SceneLoad = (countBits: number) =>
  Bundle({
    /** Pulse: forget the old scene; a word on `data` in this same cycle (with `valid`) is word 0. */
    start: Bool,
    valid: Bool,
    data: UInt(32),
    /** Sticky until `start`: the image was rejected. */
    error: flip(Bool),
    /** Triangles loaded so far (final once the index table's terminator has been seen). */
    triangle_count: flip(UInt(countBits)),
  });
