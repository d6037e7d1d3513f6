// Checks the option objects of eDSL calls: an unknown key (a typo, or an option another tool has) is an error, never silently ignored.
import type { SourceLoc } from '../ir/netlist.ts';
import { didYouMean, hdlError } from '../ir/diagnostics.ts';

/** Options other tools have that mean something else here. */
const elsewhere: Record<string, string> = {
  clock: " (a register's clock is its domain's: { domain: m.clockDomain({ clock }) }, docs/hdl-guide.md \"Clock domains and resets\")",
  clk: " (a register's clock is its domain's: { domain: m.clockDomain({ clock }) })",
};

function hintFor(key: string, known: readonly string[]): string {
  return known.includes('domain') && elsewhere[key] !== undefined ? elsewhere[key] : didYouMean(key, known);
}

/** Throws InvalidArgument at `loc` when `opts` has a key not in `known` (TypeScript catches this only where it type-checks). */
export function checkOptions(what: string, opts: object | undefined, known: readonly string[], loc: SourceLoc): void {
  if (opts === undefined) return;
  if (typeof opts !== 'object' || opts === null || Array.isArray(opts)) throw hdlError('InvalidArgument', `${what} options must be an object, got ${opts === null ? 'null' : Array.isArray(opts) ? 'an array' : typeof opts}`, loc);
  for (const key of Object.keys(opts)) {
    if (!known.includes(key)) throw hdlError('InvalidArgument', `${what} has no option '${key}'${hintFor(key, known)}; its options: ${known.join(', ')}`, loc);
  }
}
