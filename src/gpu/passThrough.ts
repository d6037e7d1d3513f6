// Connects a child's ports straight to the same-named ports of its parent, each in its own direction.
import { hideFromSourceLocations, type HValue, type ModuleBuilder, type PortSpecs } from '../hdl/index.ts';

// The connections it makes are the caller's: their SV comments name the caller's line.
hideFromSourceLocations(import.meta.url);

/** For every port in `specs`: child input ← parent input, parent output ← child output (bundles field by field). */
export function passThrough(m: ModuleBuilder, specs: PortSpecs, parent: Record<string, unknown>, child: Record<string, unknown>): void {
  for (const [name, spec] of Object.entries(specs)) {
    const [p, c] = [parent[name] as HValue, child[name] as HValue];
    if (spec.dir === 'input') m.connect(c, p);
    else m.connect(p, c);
  }
}
