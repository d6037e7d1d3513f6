// Pipeline registers for the float units: a unit describes its datapath as a chain of steps and marks
// the boundaries between them; the `stages` parameter decides which boundaries get registers.
import { Bits, hideFromSourceLocations, type BoolValue, type ModuleBuilder } from '../../index.ts';

// The pipeline registers carry the line of the unit's cut() or finish(), not this file's.
hideFromSourceLocations(import.meta.url);

/** Parameters shared by every float unit. */
export interface FloatUnitParams {
  /** Pipeline registers from inputs to outputs (0 = combinational). Latency in cycles = stages. */
  readonly stages: number;
}

export function checkStages(unit: string, stages: number): void {
  if (!Number.isInteger(stages) || stages < 0 || stages > 64) throw new Error(`${unit}: stages must be an integer from 0 to 64, got ${stages}`);
}

/**
 * How many registers each boundary gets: `result[k]` for the boundary after step k (the last entry is
 * the output). With S registers and D steps: the output always gets one (S >= 1) plus S - D extra when
 * S > D; the other min(S - 1, D - 1) go to inner boundaries chosen to minimize the heaviest stage
 * (then the sum of squared stage weights), using each step's estimated delay `weights[k]`.
 */
export function placeRegisters(stages: number, weights: readonly number[]): number[] {
  const d = weights.length;
  const regs = new Array<number>(d).fill(0);
  if (stages === 0) return regs;
  regs[d - 1] = 1 + Math.max(0, stages - d);
  const inner = Math.min(stages - 1, d - 1);
  if (inner === 0) return regs;
  if (inner === d - 1) {
    for (let k = 0; k < d - 1; k++) regs[k] = 1;
    return regs;
  }
  // best[j][i]: cost of splitting steps 0..i-1 into j+1 segments; cost = [max segment, sum of squares].
  type Cost = [number, number];
  const prefix = [0];
  for (const w of weights) prefix.push(prefix.at(-1)! + w);
  const seg = (from: number, to: number) => prefix[to]! - prefix[from]!;
  const better = (x: Cost, y: Cost) => x[0] < y[0] - 1e-9 || (Math.abs(x[0] - y[0]) <= 1e-9 && x[1] < y[1] - 1e-9);
  const best: Cost[][] = [];
  const from: number[][] = [];
  best[0] = [];
  from[0] = [];
  for (let i = 1; i <= d; i++) best[0]![i] = [seg(0, i), seg(0, i) ** 2];
  for (let j = 1; j <= inner; j++) {
    best[j] = [];
    from[j] = [];
    for (let i = j + 1; i <= d; i++) {
      let bc: Cost | undefined;
      let bk = -1;
      for (let k = j; k < i; k++) {
        const prev = best[j - 1]![k]!;
        const s = seg(k, i);
        const c: Cost = [Math.max(prev[0], s), prev[1] + s * s];
        if (!bc || better(c, bc)) {
          bc = c;
          bk = k;
        }
      }
      best[j]![i] = bc!;
      from[j]![i] = bk;
    }
  }
  let i = d;
  for (let j = inner; j >= 1; j--) {
    const k = from[j]![i]!;
    regs[k - 1] = 1;
    i = k;
  }
  return regs;
}

type Values = Record<string, Bits>;

/**
 * Inserts the registers of one unit. Call `cut` at each boundary between steps (in order) and `finish`
 * on the outputs. Registers are named `p<n>_<field>` (n counts register layers from the inputs); the
 * valid bit travels alongside as `p<n>_valid` and is the only register with a reset.
 */
export class Pipeline {
  private readonly regs: number[];
  private boundary = 0;
  private layer = 0;
  private validBit: BoolValue;

  constructor(
    private readonly m: ModuleBuilder,
    inValid: BoolValue,
    readonly unit: string,
    readonly stages: number,
    readonly weights: readonly number[],
  ) {
    checkStages(unit, stages);
    this.regs = placeRegisters(stages, weights);
    this.validBit = inValid;
  }

  /** The valid bit at the current point of the pipeline. */
  get valid(): BoolValue {
    return this.validBit;
  }

  /** The boundary after the next step: registers `values` if this boundary has registers. */
  cut<T extends Values>(values: T): T {
    if (this.boundary >= this.weights.length - 1) throw new Error(`${this.unit}: more cuts than the ${this.weights.length} declared steps allow`);
    return this.layers(values, this.regs[this.boundary++]!);
  }

  /** The outputs: registered by the output layers; checks that every declared step was used. */
  finish<T extends Values>(values: T): T {
    if (this.boundary !== this.weights.length - 1) throw new Error(`${this.unit}: ${this.boundary} cuts for ${this.weights.length} declared steps`);
    this.boundary++;
    return this.layers(values, this.regs.at(-1)!);
  }

  private layers<T extends Values>(values: T, count: number): T {
    let cur: Values = values;
    for (let r = 0; r < count; r++) {
      this.layer++;
      const next: Values = {};
      for (const [key, v] of Object.entries(cur)) {
        const q = this.m.reg(v.type, { name: `p${this.layer}_${key}` }) as unknown as Bits;
        q.set(v);
        next[key] = q;
      }
      const valid = this.m.reg(this.validBit.type, { name: `p${this.layer}_valid`, reset: 0 }) as unknown as BoolValue;
      valid.set(this.validBit);
      this.validBit = valid;
      cur = next;
    }
    return cur as T;
  }
}

/** The named fields of a stage record, to pass on only what later steps use. */
export function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Pick<T, K> {
  const r = {} as Pick<T, K>;
  for (const k of keys) r[k] = o[k];
  return r;
}
