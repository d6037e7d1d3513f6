// A textured-floor-like stream of txd requests: a camera above a plane, coherent coordinates and ray-differential derivatives, pixels in 8×8 tiles (the texture unit's throughput and hit-rate measurement).
import { fromNumber } from '../../golden/float32.ts';
import type { TxdRequestItem } from '../catalogue/textureUnitCosim.ts';

export interface FloorStreamOptions {
  readonly width: number;
  readonly height: number;
  /** The txd handle (header and sampler pool entries) every request names. */
  readonly handle: number;
  /** Texture repeats per world unit on the floor. */
  readonly repeatsPerUnit: number;
  /** Side of the square tiles the pixels are visited in. */
  readonly tile: number;
}

/** The floor point (s, t) a pixel's centre sees, or undefined above the horizon: camera at height 1 looking down 20° with a 60° field of view. */
function floorAt(o: FloorStreamOptions, px: number, py: number): [number, number] | undefined {
  const aspect = o.width / o.height;
  const tanHalf = Math.tan(Math.PI / 6);
  const x = ((px / o.width) * 2 - 1) * tanHalf * aspect;
  const y = (1 - (py / o.height) * 2) * tanHalf;
  const pitch = (20 * Math.PI) / 180;
  // Forward (0, −sin, cos), up (0, cos, sin), right (1, 0, 0).
  const dy = -Math.sin(pitch) + y * Math.cos(pitch);
  const dz = Math.cos(pitch) + y * Math.sin(pitch);
  if (dy >= -1e-3) return undefined;
  const hit = 1 / -dy;
  return [x * hit * o.repeatsPerUnit, dz * hit * o.repeatsPerUnit];
}

/** One request per floor pixel, in tile order, tag = the request's index mod 256; derivatives from the neighbouring pixels' floor points. */
export function floorStream(o: FloorStreamOptions): TxdRequestItem[] {
  const items: TxdRequestItem[] = [];
  for (let ty = 0; ty < o.height; ty += o.tile) {
    for (let tx = 0; tx < o.width; tx += o.tile) {
      for (let py = ty; py < Math.min(ty + o.tile, o.height); py++) {
        for (let px = tx; px < Math.min(tx + o.tile, o.width); px++) {
          const c = floorAt(o, px + 0.5, py + 0.5);
          const right = floorAt(o, px + 1.5, py + 0.5);
          const below = floorAt(o, px + 0.5, py + 1.5);
          if (!c || !right || !below) continue;
          items.push({
            s: fromNumber(c[0]),
            t: fromNumber(c[1]),
            handle: o.handle,
            control: 0,
            dsdx: fromNumber(right[0] - c[0]),
            dsdy: fromNumber(below[0] - c[0]),
            dtdx: fromNumber(right[1] - c[1]),
            dtdy: fromNumber(below[1] - c[1]),
            writeMask: 15,
            dest: [0, 0, 0, 0],
            tag: items.length & 0xff,
          });
        }
      }
    }
  }
  return items;
}
