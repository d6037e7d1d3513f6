// Properties in simulation: the error a failed assertion or assumption raises, and what it shows of the design.
import { basename } from 'node:path';
import type { ModuleIR, NetId, Property } from '../ir/netlist.ts';
import { cellInputs } from '../ir/netlist.ts';

/** Raised by a simulator at the first clock edge where an enabled assertion or assumption does not hold. */
export class PropertyFailedError extends Error {
  constructor(
    /** Its hierarchical name from the top module (`Top.u_fifo.assert_12`). */
    readonly property: string,
    readonly kind: 'assert' | 'assume',
    /** The TypeScript `file:line` that declared it. */
    readonly where: string,
    /** Cycles completed before the failing edge (the edge that would end cycle `cycle`). */
    readonly cycle: number,
    /** The values just before that edge of the named signals the condition is computed from. */
    readonly values: Readonly<Record<string, bigint>>,
    readonly userMessage: string | undefined,
    /** Simulated time of the edge, for a design with declared clocks. */
    readonly timeNs?: number,
  ) {
    const what = kind === 'assume' ? 'assumption' : 'assertion';
    const at = timeNs === undefined ? `at the clock edge ending cycle ${cycle}` : `at ${timeNs} ns (cycle ${cycle})`;
    const shown = Object.entries(values).map(([n, v]) => `  ${n} = ${v}${v < 10n ? '' : ` (0x${v.toString(16)})`}`);
    super(`${where}: ${what} ${property} failed${userMessage ? `: ${userMessage}` : ''}, ${at}${shown.length ? `\n${shown.join('\n')}` : ''}`);
    this.name = 'PropertyFailedError';
  }
}

/** Named signals shown with a failure. */
const SHOWN = 8;

/**
 * The named nets a property's condition is computed from: walking back from it through nets the lowering
 * made up (operator results), stopping at named ones (ports, registers, wires, named values), at most SHOWN.
 */
export function propertySupport(flat: ModuleIR, p: Property): NetId[] {
  const driver = new Map<NetId, readonly NetId[]>();
  for (const c of flat.cells) driver.set(c.out, cellInputs(c));
  const out: NetId[] = [];
  const seen = new Set<NetId>();
  const visit = (id: NetId, depth: number) => {
    if (seen.has(id) || out.length >= SHOWN || depth > 64) return;
    seen.add(id);
    const net = flat.nets[id]!;
    const inputs = driver.get(id);
    if (inputs && inputs.length === 0) return; // a constant
    // The condition itself is shown by its operands (it is 0); a register or input by its value.
    if (inputs === undefined || (depth > 0 && !net.synthesized)) return void out.push(id);
    for (const i of inputs) visit(i, depth + 1);
  };
  visit(p.cond, 0);
  return out;
}

/** `file:line` of a property's declaration. */
export function propertyWhere(p: Property): string {
  return `${basename(p.loc.file)}:${p.loc.line}`;
}
