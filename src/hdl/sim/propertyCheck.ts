// Properties in simulation: the error a failed assertion or assumption raises, and what it shows of the design.
import { basename } from 'node:path';
import type { Property } from '../ir/netlist.ts';

export { propertySupport } from '../ir/propertySupport.ts';

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
    /** Lockstep: the engines that all failed it at that edge. */
    readonly engines?: readonly string[],
    /**
     * A failed X check (m.assertKnown, a handshake's `bits_known`; only a four-state engine fails one): the
     * values shown as the engine printed them, X and Z digits included.
     */
    readonly unknownValues?: Readonly<Record<string, string>>,
  ) {
    const what = kind === 'assume' ? 'assumption' : 'assertion';
    const on = engines?.length ? ` on ${engines.join(', ')}` : '';
    const at = timeNs === undefined ? `at the clock edge ending cycle ${cycle}${on}` : `at ${timeNs} ns (cycle ${cycle})${on}`;
    const shown = [
      ...Object.entries(values).map(([n, v]) => `  ${n} = ${v}${v < 10n ? '' : ` (0x${v.toString(16)})`}`),
      ...Object.entries(unknownValues ?? {}).map(([n, v]) => `  ${n} = ${v}`),
    ];
    super(`${where}: ${what} ${property} failed${userMessage ? `: ${userMessage}` : ''}, ${at}${shown.length ? `\n${shown.join('\n')}` : ''}`);
    this.name = 'PropertyFailedError';
  }
}

/** `file:line` of a property's declaration. */
export function propertyWhere(p: Property): string {
  return `${basename(p.loc.file)}:${p.loc.line}`;
}
