// Lockstep and failed properties: every engine failing the same property at the same edge is the design's
// failure (reported once, naming the engines); anything else is a difference between the engines.
import { PropertyFailedError } from '../propertyCheck.ts';

/** What one member did over a run in which some member failed a property. */
export type MemberOutcome = { readonly label: string; readonly failed?: PropertyFailedError };

/** The engines disagree on a property: where the first failure is, and how each member differs. */
export interface PropertyDisagreement {
  readonly cycle: number;
  readonly timeNs?: number;
  /** The first failure (the earliest edge; the first member's among equals). */
  readonly first: PropertyFailedError;
  /** Per member: 0 where it failed `first` at its edge, 1 where it did not. */
  readonly values: Readonly<Record<string, bigint>>;
  /** What each member did, in words. */
  readonly note: string;
}

const earlier = (a: PropertyFailedError, b: PropertyFailedError) => b.cycle < a.cycle || (b.cycle === a.cycle && (b.timeNs ?? 0) < (a.timeNs ?? 0));
const sameEdge = (a: PropertyFailedError, b: PropertyFailedError) => a.property === b.property && a.cycle === b.cycle && a.timeNs === b.timeNs;

/**
 * Runs `run` on each member (all of them, also after one failed); returns the results when no property
 * failed. Else every member failed the same property at the same edge: that failure is thrown, with the
 * engines named; or only four-state members failed the same X check at the same edge (two-state ones
 * cannot see X): that failure is thrown, naming them; or they disagree: `disagree` throws that.
 */
export function onEveryMember<M extends { readonly label: string }, T>(members: readonly M[], run: (m: M) => T, disagree: (d: PropertyDisagreement) => never): T[] {
  const results: T[] = [];
  const outcomes: MemberOutcome[] = [];
  for (const m of members) {
    try {
      results.push(run(m));
      outcomes.push({ label: m.label });
    } catch (e) {
      if (!(e instanceof PropertyFailedError)) throw e;
      outcomes.push({ label: m.label, failed: e });
    }
  }
  const failures = outcomes.map((o) => o.failed).filter((f): f is PropertyFailedError => f !== undefined);
  if (!failures.length) return results;
  const first = failures.reduce((a, b) => (earlier(a, b) ? b : a));
  const xCheck = first.unknownValues !== undefined;
  if ((failures.length === outcomes.length || xCheck) && failures.every((f) => sameEdge(f, first))) {
    const engines = outcomes.filter((o) => o.failed).map((o) => o.label);
    throw new PropertyFailedError(first.property, first.kind, first.where, first.cycle, first.values, first.userMessage, first.timeNs, engines, first.unknownValues);
  }
  return disagree(disagreement(outcomes, first));
}

function disagreement(outcomes: readonly MemberOutcome[], first: PropertyFailedError): PropertyDisagreement {
  const what = first.kind === 'assume' ? 'assumption' : 'assertion';
  const said = outcomes.map((o) => {
    const f = o.failed;
    if (!f) return `${o.label}: held`;
    if (sameEdge(f, first)) return `${o.label}: failed`;
    return `${o.label}: ${f.property === first.property ? 'failed it' : `failed ${f.property}`} at cycle ${f.cycle}${f.timeNs === undefined ? '' : ` (${f.timeNs} ns)`}`;
  });
  return {
    cycle: first.cycle,
    ...(first.timeNs === undefined ? {} : { timeNs: first.timeNs }),
    first,
    values: Object.fromEntries(outcomes.map((o) => [o.label, o.failed && sameEdge(o.failed, first) ? 0n : 1n])),
    note: `the ${what} ${first.property} (${first.where}) at that edge: ${said.join('; ')}`,
  };
}
