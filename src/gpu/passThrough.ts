// Connects a child's ports straight to the same-named ports of its parent, each in its own direction.
import type { PortSpecs } from '../hdl/index.ts';

interface Settable {
  set(value: never): void;
}

/** For every port in `specs`: child input ← parent input, parent output ← child output. */
export function passThrough(specs: PortSpecs, parent: Record<string, unknown>, child: Record<string, unknown>): void {
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.dir === 'input') (child[name] as Settable).set(parent[name] as never);
    else (parent[name] as Settable).set(child[name] as never);
  }
}
