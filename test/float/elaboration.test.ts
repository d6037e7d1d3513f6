// Float units elaborate at every latency with the documented ports, registers and latency functions;
// the register placement spreads any number of stages over a unit's steps.
import { describe, expect, test } from 'vitest';
import { elaborate, type Design, type ModuleIR } from '../../src/hdl/index.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import * as F from '../../src/hdl/lib/float/index.ts';
import { FADD_STEPS } from '../../src/hdl/lib/float/fadd.ts';
import { FDIV_STEPS } from '../../src/hdl/lib/float/fdiv.ts';

const top = (d: Design): ModuleIR => d.modules.find((m) => m.name === d.top)!;
const portNames = (m: ModuleIR) => m.ports.map((p) => m.nets[p]!.name);
const regNames = (m: ModuleIR) => m.regs.map((r) => m.nets[r.q]!.name);

const binary = ['in_valid', 'a', 'b', 'out_valid', 'result'];
const unary = ['in_valid', 'a', 'out_valid', 'result'];
const units = [
  { def: F.FAdd, natural: F.FADD_NATURAL_STAGES, latency: F.faddLatency, ports: binary },
  { def: F.FSub, natural: F.FADD_NATURAL_STAGES, latency: F.fsubLatency, ports: binary },
  { def: F.FMul, natural: F.FMUL_NATURAL_STAGES, latency: F.fmulLatency, ports: binary },
  { def: F.FDiv, natural: F.FDIV_NATURAL_STAGES, latency: F.fdivLatency, ports: binary },
  { def: F.FSqrt, natural: F.FSQRT_NATURAL_STAGES, latency: F.fsqrtLatency, ports: unary },
  { def: F.FCmp, natural: F.FCMP_NATURAL_STAGES, latency: F.fcmpLatency, ports: ['in_valid', 'a', 'b', 'out_valid', 'flags', 'lt', 'eq', 'gt', 'unordered'] },
  { def: F.IToF, natural: F.ITOF_NATURAL_STAGES, latency: F.itofLatency, ports: unary },
  { def: F.FToI, natural: F.FTOI_NATURAL_STAGES, latency: F.ftoiLatency, ports: unary },
  { def: F.FMin, natural: F.FMINMAX_NATURAL_STAGES, latency: F.fminLatency, ports: binary },
  { def: F.FMax, natural: F.FMINMAX_NATURAL_STAGES, latency: F.fmaxLatency, ports: binary },
  { def: F.FAbs, natural: 1, latency: F.fabsLatency, ports: unary },
  { def: F.FNeg, natural: 1, latency: F.fnegLatency, ports: unary },
];

describe('register placement', () => {
  test('no registers for 0 stages; the output is always registered otherwise', () => {
    expect(F.placeRegisters(0, [1, 2, 3])).toEqual([0, 0, 0]);
    for (let s = 1; s <= 8; s++) expect(F.placeRegisters(s, FADD_STEPS).at(-1)).toBeGreaterThanOrEqual(1);
  });

  test('every stage count places exactly that many registers, at most one per inner boundary', () => {
    for (const weights of [FADD_STEPS, FDIV_STEPS, [1], [5, 1, 1, 1, 5]]) {
      for (let s = 0; s <= weights.length + 3; s++) {
        const regs = F.placeRegisters(s, weights);
        expect(regs.reduce((x, y) => x + y, 0)).toBe(s);
        expect(regs.slice(0, -1).every((r) => r <= 1)).toBe(true);
      }
    }
  });

  test('beyond the natural depth every boundary has a register and the rest go to the output', () => {
    expect(F.placeRegisters(8, FADD_STEPS)).toEqual([1, 1, 1, 1, 1, 3]);
  });

  test('equal steps are split evenly; the heaviest stage is minimized', () => {
    expect(F.placeRegisters(2, [1, 1, 1, 1])).toEqual([0, 1, 0, 1]);
    expect(F.placeRegisters(3, [1, 1, 1, 1, 1, 1])).toEqual([0, 1, 0, 1, 0, 1]);
    // Stages of weight 5 | 3 | 5 rather than 5 | 1 | 7.
    expect(F.placeRegisters(3, [5, 1, 1, 1, 5])).toEqual([1, 0, 0, 1, 1]);
  });

  test('the placement is optimal: brute force over small step lists agrees on the heaviest stage', () => {
    const heaviest = (regs: number[], weights: readonly number[]) => {
      let stage = 0;
      let worst = 0;
      weights.forEach((w, k) => {
        stage += w;
        if (regs[k]) {
          worst = Math.max(worst, stage);
          stage = 0;
        }
      });
      return worst;
    };
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let trial = 0; trial < 200; trial++) {
      const weights = Array.from({ length: 2 + Math.floor(rand() * 7) }, () => 1 + Math.floor(rand() * 6));
      const d = weights.length;
      for (let s = 1; s <= d; s++) {
        // Every choice of s - 1 inner boundaries, plus the output.
        let best = Infinity;
        for (let mask = 0; mask < 1 << (d - 1); mask++) {
          let bits = 0;
          for (let k = 0; k < d - 1; k++) bits += (mask >> k) & 1;
          if (bits !== s - 1) continue;
          const regs = [...Array.from({ length: d - 1 }, (_, k) => (mask >> k) & 1), 1];
          best = Math.min(best, heaviest(regs, weights));
        }
        expect(heaviest(F.placeRegisters(s, weights), weights), `${weights} with ${s}`).toBe(best);
      }
    }
  });
});

describe('every unit elaborates at every latency', () => {
  for (const u of units) {
    const counts = [...new Set([0, 1, 2, 3, Math.floor(u.natural / 2), u.natural - 1, u.natural, u.natural + 1])].filter((s) => s >= 0);
    test(`${u.def.name}: stages ${counts.join(', ')}`, () => {
      for (const stages of counts) {
        const { design, warnings } = elaborate(u.def as never, { stages });
        expect(warnings, `${u.def.name} stages ${stages}`).toEqual([]);
        const m = top(design);
        expect(u.latency({ stages })).toBe(stages);
        // The valid bit has one register per stage, and only the valid bits have a reset.
        const valids = regNames(m).filter((n) => /^p\d+_valid$/.test(n));
        expect(valids.length).toBe(stages);
        expect(m.regs.filter((r) => r.reset).length).toBe(stages);
        // rst_n is added (where the reset is first used) only when there are registers.
        expect(portNames(m).filter((n) => n !== 'rst_n')).toEqual(u.ports);
        expect(portNames(m).includes('rst_n')).toBe(stages > 0);
        expect(m.regs.every((r) => /^p\d+_/.test(m.nets[r.q]!.name))).toBe(true);
      }
    }, 60_000);
  }

  test('an invalid stage count is rejected', () => {
    expect(() => elaborate(F.FAdd, { stages: -1 })).toThrow(/stages must be an integer/);
    expect(() => elaborate(F.FAdd, { stages: 1.5 })).toThrow(/stages must be an integer/);
  });

  test('SystemVerilog: named pipeline registers and datapath signals', () => {
    const sv = emitSystemVerilog(elaborate(F.FAdd, { stages: 3 }).design).files.map((f) => f.text).join('\n');
    for (const name of ['p1_valid', 'p3_result', 'small_aligned', 'sum_zeros', 'effectiveSub', 'normShift']) expect(sv).toContain(name);
  });
});
