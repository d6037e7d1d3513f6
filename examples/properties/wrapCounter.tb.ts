// Testbench of WrapCounter: random enables and clears (never both, as the design assumes), the count checked against a TypeScript model every cycle.
import { elaborate } from 'rtgpu/hdl';
import type { Testbench } from 'rtgpu/hdl/testbench';
import { WrapCounter, params } from './wrapCounter.ts';

export const design = elaborate(WrapCounter, params).design;

export default async function (tb: Testbench): Promise<void> {
  await tb.reset();
  let model = 0;
  for (let cycle = 0; cycle < 2000; cycle++) {
    const clear = tb.rng.int(40) === 0;
    const en = !clear && tb.rng.int(4) !== 0;
    tb.sim.poke('clear', clear ? 1 : 0);
    tb.sim.poke('en', en ? 1 : 0);
    const count = Number(tb.sim.peek('count'));
    if (count !== model) throw new Error(`cycle ${cycle}: count ${count}, the model says ${model}`);
    await tb.tick();
    model = clear ? 0 : en ? (model + 1) % params.limit : model;
  }
}
