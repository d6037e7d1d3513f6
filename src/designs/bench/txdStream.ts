// txd requests offered in order to a TextureUnitSystem on the TS simulator (each held until taken), answers collected, issue cycles and counters read: the texture unit's tests and its bench.
import type { Design } from '../../hdl/index.ts';
import { compileSimulator } from '../../hdl/sim/index.ts';
import { txdAnswerFromOutputs, txdRequestInputs, type TxdAnswer, type TxdRequestItem } from '../catalogue/textureUnitCosim.ts';

export interface TxdStreamRun {
  readonly answers: TxdAnswer[];
  /** Cycles from the first request taken to the last answer. */
  readonly cycles: number;
  /** Cycles from the first issue at the texel stage to the last, inclusive. */
  readonly issueSpan: number;
  /** Per request: the cycle it was taken and the cycle its answer came out. */
  readonly takenAt: number[];
  readonly answeredAt: number[];
  readonly counters: Record<'issued' | 'texel_lookups' | 'texel_hits' | 'texel_fills' | 'descriptor_fills' | 'stall_cycles' | 'descriptor_stall_cycles', number>;
}

const COUNTERS = ['issued', 'texel_lookups', 'texel_hits', 'texel_fills', 'descriptor_fills', 'stall_cycles', 'descriptor_stall_cycles'] as const;
const RESP = ['resp_bits_rgba', 'resp_bits_status', 'resp_bits_tag'];

export interface TxdStreamOptions {
  /** Cycles without a request before request k is offered (default 0). */
  readonly idleBefore?: (k: number) => number;
  /** Whether resp_ready is high in a cycle (default always). */
  readonly ready?: (cycle: number) => boolean;
  readonly maxCycles?: number;
}

/** Offers `items` one after another (req_valid high until each is taken) and runs until every answer is taken. */
export function runTxdStream(design: Design, items: readonly TxdRequestItem[], options: TxdStreamOptions = {}): TxdStreamRun {
  const { idleBefore = () => 0, ready = () => true, maxCycles = 200_000 } = options;
  const sim = compileSimulator(design);
  sim.reset();
  const answers: TxdAnswer[] = [];
  let next = 0;
  let cycle = 0;
  let firstTaken = -1;
  let firstIssue = -1;
  let lastIssue = -1;
  let issued = 0n;
  const takenAt: number[] = [];
  const answeredAt: number[] = [];
  let idle = idleBefore(0);
  while (answers.length < items.length) {
    if (cycle++ > maxCycles) throw new Error(`runTxdStream: ${answers.length} of ${items.length} answers after ${maxCycles} cycles`);
    const offering = next < items.length && idle === 0;
    if (offering) for (const [name, v] of Object.entries(txdRequestInputs(items[next]!))) sim.poke(name, v);
    else if (idle > 0) idle--;
    sim.poke('req_valid', offering ? 1 : 0);
    const readyNow = ready(cycle);
    sim.poke('resp_ready', readyNow ? 1 : 0);
    const taken = offering && sim.peek('req_ready') === 1n;
    if (readyNow && sim.peek('resp_valid') === 1n) {
      answers.push(txdAnswerFromOutputs(Object.fromEntries(RESP.map((n) => [n, sim.peek(n)]))));
      answeredAt.push(cycle);
    }
    sim.step();
    const nowIssued = sim.peek('counters_issued');
    if (nowIssued !== issued) {
      if (firstIssue < 0) firstIssue = cycle;
      lastIssue = cycle;
      issued = nowIssued;
    }
    if (taken) {
      if (firstTaken < 0) firstTaken = cycle;
      takenAt.push(cycle);
      next++;
      if (next < items.length) idle = idleBefore(next);
    }
  }
  const counters = Object.fromEntries(COUNTERS.map((n) => [n, Number(sim.peek(`counters_${n}`))])) as TxdStreamRun['counters'];
  return { answers, cycles: cycle - firstTaken, issueSpan: lastIssue - firstIssue + 1, takenAt, answeredAt, counters };
}
