// The built-in kernels, shipped as assembly next to this file.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const KERNELS = ['id', 'shade', 'textured'] as const;
export type KernelName = (typeof KERNELS)[number];

/** The path and source of a built-in kernel. */
export function kernelSource(name: KernelName): { path: string; source: string } {
  const path = fileURLToPath(new URL(`./${name}.s`, import.meta.url));
  return { path, source: readFileSync(path, 'utf8') };
}
