// Finds combinational cycles in a flat netlist (registers and synchronous memory reads break paths).
import type { ModuleIR, NetId } from './netlist.ts';
import { cellInputs } from './netlist.ts';

/** One cycle as a list of nets (first net repeated at the end is implied), or null if there is none. */
export function findCombinationalLoop(flat: ModuleIR): NetId[] | null {
  // Edges from a combinational net to the nets it is computed from.
  const deps = new Map<NetId, NetId[]>();
  for (const c of flat.cells) deps.set(c.out, cellInputs(c));
  for (const m of flat.memories) for (const p of m.readPorts) if (p.kind === 'async') deps.set(p.data, [p.addr]);
  const state = new Uint8Array(flat.nets.length); // 0 new, 1 on stack, 2 done
  const stack: NetId[] = [];
  for (const start of deps.keys()) {
    if (state[start]) continue;
    // Iterative DFS: frames of (net, next dependency index).
    const frames: [NetId, number][] = [[start, 0]];
    state[start] = 1;
    stack.push(start);
    while (frames.length) {
      const top = frames[frames.length - 1]!;
      const ds = deps.get(top[0]) ?? [];
      if (top[1] >= ds.length) {
        state[top[0]] = 2;
        stack.pop();
        frames.pop();
        continue;
      }
      const next = ds[top[1]++]!;
      if (state[next] === 1) return rotateToSmallest(stack.slice(stack.indexOf(next)).reverse());
      if (state[next] === 0 && deps.has(next)) {
        state[next] = 1;
        stack.push(next);
        frames.push([next, 0]);
      }
    }
  }
  return null;
}

/** Start the reported cycle at its earliest-declared net, so reports do not depend on search order. */
function rotateToSmallest(cycle: NetId[]): NetId[] {
  const i = cycle.indexOf(Math.min(...cycle));
  return [...cycle.slice(i), ...cycle.slice(0, i)];
}
