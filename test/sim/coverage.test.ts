// Functional coverage on the TS simulator: cover points, fsm states and transitions, toggles, sampled before
// every edge by step and by runVectors (which leaves its fused loop while observed), merged across runs.
import { describe, expect, test } from 'vitest';
import { Bool, UInt, defineModule, elaborate, fsm, input, output } from '../../src/hdl/index.ts';
import { CoverageRecorder, compileSimulator, formatCoverage, mergeCoverage } from '../../src/hdl/sim/index.ts';

/** idle -> fill on start, fill -> drain when the count reaches 3, drain -> idle when it is back at 0; `halt` is never entered. */
const Machine = defineModule('CovMachine', () => ({ start: input(Bool), busy: output(Bool), level: output(UInt(2)) }), (m, io) => {
  const ctrl = fsm(m, 'ctrl', ['idle', 'fill', 'drain', 'halt'], 'idle');
  const level = m.reg(UInt(2), { reset: 0 });
  ctrl.on({
    idle: () => m.when(io.start, () => ctrl.goto('fill')),
    fill: () => m.when(level.eq(3), () => ctrl.goto('drain')).otherwise(() => level.set(level.add(1))),
    drain: () => m.when(level.eq(0), () => ctrl.goto('idle')).otherwise(() => level.set(level.sub(1))),
  });
  io.busy.set(ctrl.is('idle').not());
  io.level.set(level);
  m.cover(ctrl.is('drain').and(level.eq(1)), 'draining');
  m.cover(ctrl.is('halt'), 'halted');
});
const design = elaborate(Machine, undefined).design;

describe('coverage', () => {
  for (const backend of ['js', 'wasm'] as const) {
    test(`${backend}: states, transitions, covers and toggles of one start pulse`, () => {
      const sim = compileSimulator(design, { backend });
      const rec = new CoverageRecorder(design, sim);
      sim.reset();
      sim.poke('start', 1);
      sim.step();
      sim.poke('start', 0);
      sim.step(12);
      rec.stop();
      sim.step(5); // not sampled
      const r = rec.report();
      expect(r.edges).toBe(14);
      // reset (1 edge in idle) + idle with start (1) + 4 fill + 4 drain + 4 idle.
      expect(r.fsms.ctrl_state!.states).toEqual({ idle: 6, fill: 4, drain: 4, halt: 0 });
      expect(r.fsms.ctrl_state!.transitions).toEqual({ 'idle->fill': 1, 'fill->drain': 1, 'drain->idle': 1 });
      expect(r.covers).toEqual({ draining: { where: expect.stringMatching(/^coverage\.test\.ts:\d+$/), hits: 1 }, halted: { where: expect.stringMatching(/^coverage\.test\.ts:\d+$/), hits: 0 } });
      // level went 0 -> 3 -> 0: both bits rose and fell; start rose and fell; busy rose and fell.
      expect(r.toggles.level).toEqual({ width: 2, rose: '0x3', fell: '0x3' });
      expect(r.toggles.start).toEqual({ width: 1, rose: '0x1', fell: '0x1' });
      const text = formatCoverage(r);
      expect(text).toContain('cover points: 1 of 2 hit');
      expect(text).toMatch(/never hit: halted \(coverage\.test\.ts:\d+\)/);
      expect(text).toMatch(/ctrl_state \(ctrl, coverage\.test\.ts:\d+\): 3 of 4 states, 3 transitions; never in halt/);
      sim.close();
    });
  }

  test('runVectors is sampled at every edge while observed, and fast again when not', () => {
    const sim = compileSimulator(design, { backend: 'wasm' });
    sim.reset();
    const rec = new CoverageRecorder(design, sim, { toggles: false });
    const rows = new Uint32Array(40).map((_, i) => (i % 20 === 0 ? 1 : 0));
    sim.runVectors(['start'], ['busy'], rows, 40);
    rec.stop();
    const r = rec.report();
    expect(r.edges).toBe(40);
    expect(r.toggles).toEqual({});
    expect(r.fsms.ctrl_state!.transitions).toEqual({ 'idle->fill': 2, 'fill->drain': 2, 'drain->idle': 2 });
    expect(sim.coverCounts().draining).toBe(2);
  });

  test('reports of several runs merge: counts add, toggles join; another design is refused', () => {
    const run = (pulses: number) => {
      const sim = compileSimulator(design);
      const rec = new CoverageRecorder(design, sim);
      sim.reset();
      for (let i = 0; i < pulses; i++) {
        sim.poke('start', 1);
        sim.step();
        sim.poke('start', 0);
        sim.step(12);
      }
      return rec.report();
    };
    const merged = mergeCoverage(run(1), run(2));
    expect(merged.runs).toBe(2);
    expect(merged.edges).toBe(14 + 27);
    expect(merged.covers.draining!.hits).toBe(3);
    expect(merged.fsms.ctrl_state!.transitions['idle->fill']).toBe(3);
    expect(() => mergeCoverage(merged, { ...merged, design: 'Other' })).toThrow(/coverage of CovMachine and of Other cannot be merged/);
  });
});
