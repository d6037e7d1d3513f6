// Test helper: txd requests offered in order to a TextureUnitSystem on the TS simulator (each held until taken), answers collected, issue cycles and counters read.
import type { Design } from '../../src/hdl/index.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { txdAnswerFromOutputs, txdRequestInputs, type TxdAnswer, type TxdRequestItem } from '../../src/designs/textureUnitCosim.ts';

export interface TxdStreamRun {
  readonly answers: TxdAnswer[];
  /** Cycles from the first request taken to the last answer. */
  readonly cycles: number;
  /** Cycles from the first issue at the texel stage to the last, inclusive. */
  readonly issueSpan: number;
  readonly counters: Record<'issued' | 'texel_lookups' | 'texel_hits' | 'texel_fills' | 'descriptor_fills' | 'stall_cycles' | 'descriptor_stall_cycles', number>;
}

const COUNTERS = ['issued', 'texel_lookups', 'texel_hits', 'texel_fills', 'descriptor_fills', 'stall_cycles', 'descriptor_stall_cycles'] as const;
const RESP = ['resp_valid', 'resp_rgba', 'resp_status', 'resp_tag'];

/** Offers `items` one after another (req_valid high until each is taken) and runs until every answer is out. */
export function runTxdStream(design: Design, items: readonly TxdRequestItem[], maxCycles = 200_000): TxdStreamRun {
  const sim = compileSimulator(design);
  sim.reset();
  const answers: TxdAnswer[] = [];
  let next = 0;
  let cycle = 0;
  let firstTaken = -1;
  let firstIssue = -1;
  let lastIssue = -1;
  let issued = 0n;
  while (answers.length < items.length) {
    if (cycle++ > maxCycles) throw new Error(`runTxdStream: ${answers.length} of ${items.length} answers after ${maxCycles} cycles`);
    if (next < items.length) for (const [name, v] of Object.entries(txdRequestInputs(items[next]!))) sim.poke(name, v);
    sim.poke('req_valid', next < items.length ? 1 : 0);
    const taken = next < items.length && sim.peek('req_ready') === 1n;
    if (sim.peek('resp_valid') === 1n) answers.push(txdAnswerFromOutputs(Object.fromEntries(RESP.map((n) => [n, sim.peek(n)]))));
    sim.step();
    const nowIssued = sim.peek('issued');
    if (nowIssued !== issued) {
      if (firstIssue < 0) firstIssue = cycle;
      lastIssue = cycle;
      issued = nowIssued;
    }
    if (taken) {
      if (firstTaken < 0) firstTaken = cycle;
      next++;
    }
  }
  const counters = Object.fromEntries(COUNTERS.map((n) => [n, Number(sim.peek(n))])) as TxdStreamRun['counters'];
  return { answers, cycles: cycle - firstTaken, issueSpan: lastIssue - firstIssue + 1, counters };
}
