// `prove`: a design's properties checked by yosys-smtbmc (bounded model checking, k-induction, cover), with counterexamples as inputs per cycle or instant.
import { copyFileSync, existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { flattenDesign } from '../ir/flatten.ts';
import type { Design } from '../ir/netlist.ts';
import { inputTrace, writeCounterexampleTestbench } from './counterexample.ts';
import { buildFormalModel, type FormalModel } from './formalModel.ts';
import { prepareProofDir, recordProofFiles } from './proofDir.ts';
import type { Counterexample, CoverResult, ProofMode, ProofOptions, ProofResult, PropertyRef } from './proofResult.ts';
import { proofModes } from './proofResult.ts';
import { propertyOf, siteOf, type PropertySite } from './propertySites.ts';
import { requireSmtbmc, runSmtbmc, type SmtbmcRun } from './smtbmc.ts';
import { readWitness } from './witness.ts';

const DEFAULT_DEPTH = 20;
const MAX_DEPTH = 10_000;

/** What one proof is doing, shared by its steps. */
interface Proof {
  readonly design: Design;
  readonly mode: ProofMode;
  readonly depth: number;
  readonly dir: string;
  readonly model: FormalModel;
  readonly opts: ProofOptions;
  /** Files written into `dir`. */
  readonly files: string[];
  readonly log: (line: string) => void;
}

function checkOptions(design: Design, mode: ProofMode, depth: number): void {
  if (!proofModes.includes(mode)) throw new Error(`prove: mode must be one of ${proofModes.join(', ')}, got '${String(mode)}'`);
  if (!Number.isSafeInteger(depth) || depth < 1 || depth > MAX_DEPTH) throw new Error(`prove: depth must be an integer from 1 to ${MAX_DEPTH}, got ${depth}`);
  const props = (flattenDesign(design).properties ?? []).filter((p) => p.known === undefined);
  const count = (k: string) => props.filter((p) => p.kind === k).length;
  if (props.length === 0) throw new Error(`${design.top} has no properties to prove: state them in the design with m.assert(cond, message), m.assume(cond) and m.cover(cond, name)`);
  if (mode !== 'cover' && count('assert') === 0) throw new Error(`${design.top} has no assertions (m.assert) to ${mode === 'bmc' ? 'check' : 'prove'}${count('cover') ? `; its ${count('cover')} cover points are checked with mode 'cover'` : ''}`);
  if (mode === 'cover' && count('cover') === 0) throw new Error(`${design.top} has no cover points (m.cover) to reach${count('assert') ? `; its ${count('assert')} assertions are checked with mode 'bmc' or 'prove'` : ''}`);
}

/**
 * Checks the properties of `design` from power-on (the state every simulator starts in: registers at their
 * initial blocks' values, which are the TS simulator's). Assumptions restrict the inputs the solver may choose.
 * Throws for a design without properties to check, a missing tool (MissingToolError), or a tool failure.
 */
export async function prove(design: Design, opts: ProofOptions = {}): Promise<ProofResult> {
  const start = performance.now();
  const mode = opts.mode ?? 'prove';
  const depth = opts.depth ?? DEFAULT_DEPTH;
  checkOptions(design, mode, depth);
  await requireSmtbmc();
  const dir = prepareProofDir(opts.dir);
  const log = opts.log ?? (() => {});
  const model = await buildFormalModel(design, dir);
  log(`yosys: ${design.top} read under -formal and written as ${model.smt2} in ${model.seconds.toFixed(1)} s (${dir})`);
  const p: Proof = { design, mode, depth, dir, model, opts, files: [...model.files], log };
  try {
    const result = mode === 'cover' ? await cover(p) : mode === 'bmc' ? await bmc(p) : await induction(p);
    return { ...result, mode, depth, unit: model.unit, top: design.top, dir, seconds: (performance.now() - start) / 1000 };
  } finally {
    recordProofFiles(dir, p.files);
  }
}

type Outcome = Pick<ProofResult, 'status' | 'property' | 'counterexample' | 'covers' | 'induction'>;

/**
 * The arguments every run shares: `depth` cycles (or instants) from power-on, and for instants the clocks
 * low at power-on. A property sampled at the edge ending cycle k is reported at step k + 1; one sampled at
 * instant k at step k (instant 0 makes no edge): steps 0 .. depth either way.
 */
const common = (p: Proof) => ['-t', String(p.depth + 1), ...(p.model.smtc ? ['--smtc', p.model.smtc] : [])];

/** The cycle (or instant) where a property reported at a solver step is sampled, as the simulators count. */
const simulatorStep = (p: Proof, step: number) => (p.model.unit === 'cycle' ? step - 1 : step);

/** The units of a depth, for messages. */
const span = (p: Proof) => `${p.depth} ${p.model.unit === 'cycle' ? 'cycles' : 'instants'}`;

/**
 * The failure the TS simulator would stop at among those a run reports: the earliest step (a cover trace may
 * pass several), then the earliest place in the flattened design (the order it checks an edge's properties in).
 */
function firstFailed(p: Proof, run: SmtbmcRun): { ref: PropertyRef; step?: number } | undefined {
  if (!run.failedAsserts.length) return undefined;
  const order = new Map((flattenDesign(p.design).properties ?? []).map((x, i) => [x.name, i]));
  const rank = (s: PropertySite | undefined) => (s ? (order.get(s.ref.path) ?? Infinity) : Infinity);
  const key = (f: SmtbmcRun['failedAsserts'][number]) => [f.step ?? Infinity, rank(siteOf(p.model.sites, f.description))] as const;
  const best = [...run.failedAsserts].sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1])[0]!;
  return { ref: propertyOf(p.model.sites, best.description, 'assert'), ...(best.step === undefined ? {} : { step: best.step }) };
}

const fileName = (ref: PropertyRef) => ref.path.replace(/[^A-Za-z0-9_]+/g, '_');

/**
 * A failing trace (witness `yw`, waveform `vcd`, steps from power-on to the failing step: its last, or
 * `failingStep`) as a counterexample of `ref`, its files named after it (a cover trace is copied: covers name it too).
 */
function counterexample(p: Proof, ref: PropertyRef, trace: { yw: string; vcd: string; failingStep?: number; keep?: boolean }): Counterexample {
  const witness = readWitness(join(p.dir, trace.yw));
  const failingStep = simulatorStep(p, trace.failingStep ?? witness.steps - 1);
  // Cycles: those before the failing edge's, which ends the last; instants: up to the failing one.
  const steps = failingStep + 1;
  const inputs = inputTrace(witness, p.model, steps);
  const base = `cex_${fileName(ref)}`;
  const move = trace.keep ? copyFileSync : renameSync;
  move(join(p.dir, trace.vcd), join(p.dir, `${base}.vcd`));
  move(join(p.dir, trace.yw), join(p.dir, `${base}.yw`));
  p.files.push(`${base}.vcd`, `${base}.yw`);
  const cex: Counterexample = { unit: p.model.unit, steps, failingStep, trace: inputs, vcd: join(p.dir, `${base}.vcd`) };
  if (!p.opts.source) return cex;
  const testbench = writeCounterexampleTestbench({
    path: join(p.dir, `${base}.ts`),
    source: p.opts.source,
    property: ref,
    trace: inputs,
    failingStep,
    foundBy: `rtgpu prove (${p.mode}, depth ${p.depth})`,
  });
  p.files.push(`${base}.ts`);
  return { ...cex, testbench };
}

async function bmcRun(p: Proof, signal?: AbortSignal): Promise<{ run: SmtbmcRun; outcome?: Outcome }> {
  p.files.push('bmc.log', 'bmc.vcd', 'bmc.yw');
  const run = await runSmtbmc(p.model.smt2, [...common(p), '--dump-vcd', 'bmc.vcd', '--dump-yw', 'bmc.yw'], { cwd: p.dir, name: 'bmc', timeoutSeconds: p.opts.timeoutSeconds, signal });
  p.log(`bmc: ${run.passed ? `no assertion fails within ${span(p)}` : 'an assertion fails'} (${run.seconds.toFixed(1)} s)`);
  if (run.passed) return { run };
  const failed = firstFailed(p, run);
  if (!failed || !existsSync(join(p.dir, 'bmc.yw'))) throw new Error(`yosys-smtbmc reported a failure without a failing assertion and trace; see ${run.log}`);
  return { run, outcome: { status: 'failed', property: failed.ref, counterexample: counterexample(p, failed.ref, { yw: 'bmc.yw', vcd: 'bmc.vcd' }) } };
}

async function bmc(p: Proof): Promise<Outcome> {
  const { outcome } = await bmcRun(p);
  return outcome ?? { status: 'bounded' };
}

/** As SymbiYosys' prove: the base case (bmc) and the induction step side by side; proven when both pass. */
async function induction(p: Proof): Promise<Outcome> {
  const stop = new AbortController();
  p.files.push('induction.log', 'induction.vcd');
  const step = runSmtbmc(p.model.smt2, ['-i', ...common(p), '--dump-vcd', 'induction.vcd'], { cwd: p.dir, name: 'induction', timeoutSeconds: p.opts.timeoutSeconds, signal: stop.signal });
  // A failing base case decides alone: the induction step is stopped (and its rejection is expected).
  step.catch(() => {});
  const base = await bmcRun(p).catch((e: unknown) => (stop.abort(), Promise.reject(e)));
  if (base.outcome) {
    stop.abort();
    return base.outcome;
  }
  const ind = await step;
  p.log(`induction: ${ind.passed ? `closes at depth ${p.depth}: proven` : `does not close at depth ${p.depth}: bounded`} (${ind.seconds.toFixed(1)} s)`);
  if (ind.passed) return { status: 'proven' };
  const failed = firstFailed(p, ind);
  return { status: 'bounded', induction: { ...(failed ? { property: failed.ref } : {}), vcd: join(p.dir, 'induction.vcd') } };
}

/** Each cover point reached (with the trace that reaches it) or not within the depth; an assertion failing on the way is a failure. */
async function cover(p: Proof): Promise<Outcome> {
  p.files.push('cover.log');
  const run = await runSmtbmc(p.model.smt2, ['-c', ...common(p), '--dump-vcd', 'cover%.vcd', '--dump-yw', 'cover%.yw'], { cwd: p.dir, name: 'cover', timeoutSeconds: p.opts.timeoutSeconds });
  // Each "Reached" group is followed by the trace that reaches it: "Writing trace to VCD file: cover0.vcd".
  const traceOf = new Map<string, string>();
  let pending: string[] = [];
  let lastTrace: string | undefined;
  for (const m of run.messages) {
    const reached = /^Reached cover statement at (.*) in step \d+\.$/.exec(m);
    if (reached) pending.push(reached[1]!);
    const written = /^Writing trace to VCD file: (.*)$/.exec(m);
    if (written) {
      lastTrace = written[1]!;
      p.files.push(lastTrace, lastTrace.replace(/\.vcd$/, '.yw'));
      for (const d of pending) traceOf.set(d, join(p.dir, lastTrace));
      pending = [];
    }
  }
  const covers = p.model.sites.filter((s) => s.ref.kind === 'cover').map((site): CoverResult => {
    const hit = run.reachedCovers.find((r) => siteOf([site], r.description) === site);
    return hit ? { property: site.ref, reached: true, step: simulatorStep(p, hit.step), ...(traceOf.has(hit.description) ? { vcd: traceOf.get(hit.description)! } : {}) } : { property: site.ref, reached: false };
  });
  const failed = firstFailed(p, run);
  if (failed && lastTrace) {
    const yw = lastTrace.replace(/\.vcd$/, '.yw');
    p.log(`cover: an assertion fails on the way to a cover point (${run.seconds.toFixed(1)} s)`);
    return { status: 'failed', property: failed.ref, covers, counterexample: counterexample(p, failed.ref, { yw, vcd: lastTrace, failingStep: failed.step, keep: true }) };
  }
  const missed = covers.filter((c) => !c.reached).length;
  p.log(`cover: ${covers.length - missed} of ${covers.length} cover points reached within ${span(p)} (${run.seconds.toFixed(1)} s)`);
  return { status: missed ? 'unreachable' : 'covered', covers };
}
