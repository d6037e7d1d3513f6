// The $error reports of an external engine (Verilator, Icarus): a failed property becomes the
// PropertyFailedError the TS simulator raises at the same edge; any other $error, an error with its text.
import type { Design, ModuleIR } from '../../ir/netlist.ts';
import { findModule, topModule } from '../../ir/netlist.ts';
import { printedProperty, printedValues } from '../../emit/propertyText.ts';
import { PropertyFailedError, propertyWhere } from '../propertyCheck.ts';
import type { ExternalDesign } from './externalDesign.ts';

/** One `$error` an engine ran at an edge. */
export interface EngineReport {
  /** The engine's count of cycles completed before the edge (rising edges of the first clock since power-on). */
  readonly cycle: number;
  /** Time of the edge in ps (a design with several clocks runs in time), else -1. */
  readonly timePs: number;
  /** The SV instance path below the top of the module that called `$error`; null when the engine did not say. */
  readonly scope: readonly string[] | null;
  /** What `$error` printed (for a property: `file.ts:12: assertion Module.name failed…`). */
  readonly text: string;
}

/** An instance of a module in the hierarchy: its path of TS instance names and of SV identifiers. */
interface Placement {
  readonly ts: readonly string[];
  readonly sv: readonly string[];
}

const placements = new WeakMap<ExternalDesign, Map<string, Placement[]>>();

/** Module name -> every instance of it (the top: the empty path); black boxes are opaque. */
function placementsOf(x: ExternalDesign): Map<string, Placement[]> {
  let out = placements.get(x);
  if (out) return out;
  out = new Map();
  const visit = (mod: ModuleIR, at: Placement) => {
    out!.set(mod.name, [...(out!.get(mod.name) ?? []), at]);
    for (const inst of mod.instances) {
      const child = findModule(x.design, inst.module);
      const id = x.emitted.identifiers[mod.name]?.[inst.name] ?? inst.name;
      if (!child.blackBox) visit(child, { ts: [...at.ts, inst.name], sv: [...at.sv, id] });
    }
  };
  visit(topModule(x.design), { ts: [], sv: [] });
  placements.set(x, out);
  return out;
}

interface Resolved {
  readonly flatIndex: number;
  readonly error: PropertyFailedError;
}

/** A report of a failed property as the error the TS simulator raises; null for another `$error`. */
function resolve(x: ExternalDesign, backend: string, r: EngineReport): Resolved | null {
  const named = printedProperty(r.text);
  if (!named) return null;
  const mod = x.design.modules.find((m) => m.name === named.module);
  const local = mod?.properties?.find((p) => p.name === named.name);
  const where = placementsOf(x).get(named.module) ?? [];
  if (!mod || !local || !where.length) return null;
  const exact = r.scope && where.find((w) => w.sv.join('.') === r.scope!.join('.'));
  const at = exact ?? where[0]!;
  const flatName = [...at.ts, local.name].join('.');
  const flatIndex = (x.flat.properties ?? []).findIndex((p) => p.name === flatName);
  if (flatIndex < 0) return null;
  const prefix = at.ts.map((s) => `${s}.`).join('');
  const printed = printedValues(mod, local, r.text);
  const values = Object.fromEntries([...printed.known].map(([n, v]) => [prefix + n, v]));
  const unknown = local.known === undefined ? undefined : Object.fromEntries([...printed.unknown].map(([n, v]) => [prefix + n, v]));
  const kind = local.kind === 'assume' ? 'assume' : 'assert';
  const error = new PropertyFailedError(`${x.design.top}.${flatName}`, kind, propertyWhere(local), r.cycle, values, local.message, r.timePs >= 0 ? r.timePs / 1000 : undefined, undefined, unknown);
  if (!exact && where.length > 1) error.message += `\n(${backend} did not say which instance of ${named.module} it was: one of ${where.map((w) => w.ts.join('.')).join(', ')})`;
  return { flatIndex, error };
}

/**
 * The error for the reports of the edge that stopped an engine's run: the failed property the TS
 * simulator would name (the first, in the design's order, of those at the earliest edge), else the
 * first `$error` that is no property's, with its text.
 */
export function engineReportsError(x: ExternalDesign, backend: 'verilator' | 'icarus', reports: readonly EngineReport[]): Error {
  if (!reports.length) return new Error(`internal: ${backend} stopped ${x.design.top} for a $error it did not report`);
  const first = reports.reduce((a, r) => (r.cycle < a.cycle || (r.cycle === a.cycle && r.timePs < a.timePs) ? r : a));
  const atEdge = reports.filter((r) => r.cycle === first.cycle && r.timePs === first.timePs);
  const failed = atEdge.map((r) => resolve(x, backend, r)).filter((r): r is Resolved => r !== null);
  if (failed.length) return failed.reduce((a, r) => (r.flatIndex < a.flatIndex ? r : a)).error;
  const at = first.timePs >= 0 ? `at ${first.timePs / 1000} ns (cycle ${first.cycle})` : `at the clock edge ending cycle ${first.cycle}`;
  return new Error(`${backend}: ${x.design.top}${first.scope?.length ? `.${first.scope.join('.')}` : ''} called $error ${at}: ${first.text}\n(powerOn() starts it again)`);
}

/** Whether the design has assertions or assumptions (whose failures an engine must report at once). */
export function hasCheckedProperties(design: Design): boolean {
  return design.modules.some((m) => m.properties?.some((p) => p.kind !== 'cover'));
}
