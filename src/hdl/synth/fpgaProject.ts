// What the FPGA tool scripts of one top module need: its sources, memory images, clock, reset and ports.
import type { ManifestPort } from '../emit/manifest.ts';

/** Where the tool scripts write their output, relative to the directory they run from; rtgpu never generates or deletes it. */
export const BUILD_DIR = 'build';

export interface FpgaProject {
  readonly top: string;
  /** The .sv files in dependency order, relative to the directory the scripts run from. */
  readonly files: readonly string[];
  /** The directory holding the top's `$readmemh` images (relative, like `files`). */
  readonly imageDir: string;
  readonly clock: { readonly port: string; readonly mhz: number };
  /** The active-low synchronous reset input. */
  readonly reset: string;
  /** Every port of the top, the clock included. */
  readonly ports: readonly ManifestPort[];
}

/** The clock period in ns, as the constraint files write it. */
export function clockPeriodNs(p: FpgaProject): string {
  return (1000 / p.clock.mhz).toFixed(3);
}

/** The way back from a directory of scripts (`synth/vivado`) to the root the project's paths start from (`../..`). */
export function pathToRoot(dir: string): string {
  return dir.split('/').map(() => '..').join('/');
}

/** The ports that are not the clock: the host side of the top. */
export function nonClockPorts(p: FpgaProject): ManifestPort[] {
  return p.ports.filter((x) => x.name !== p.clock.port);
}
