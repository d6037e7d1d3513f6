// The primary rays of a frame, bit for bit as the kernels form them on the GPU (the `id` kernel run on the ISA simulator).
import { Machine } from '../iss/index.ts';
import type { Vec3 } from '../golden/rayCaster.ts';
import type { Camera } from './camera.ts';
import { buildFrame } from './frame.ts';

export interface Ray {
  readonly origin: Vec3;
  readonly direction: Vec3;
}

/**
 * The ray of every pixel (pixel id = y · width + x), as `rtgpu render` casts it first: both built-in
 * kernels form it with the same instructions (test/host/shade.test.ts checks that). The ISA simulator
 * runs the `id` kernel over an empty scene, so each thread traces once, and the traced rays are kept.
 */
export function primaryRays(camera: Camera, width: number, height: number): Ray[] {
  const rays: Ray[] = [];
  const scene = { vertices: new Uint32Array(0), triangles: new Uint32Array(0) };
  const job = buildFrame({ kernel: 'id', camera, width, height, scene });
  const machine = new Machine({
    program: job.program,
    constants: job.constants,
    scene,
    onRetire: (_t, r) => {
      if (r.trace) rays.push({ origin: r.trace.origin, direction: r.trace.direction });
    },
  });
  machine.run(job.pixels);
  if (rays.length !== job.pixels) throw new Error(`expected one trace per pixel, got ${rays.length} for ${job.pixels} pixels`);
  return rays;
}
