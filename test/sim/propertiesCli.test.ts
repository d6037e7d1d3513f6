// rtgpu sim on a testbench file whose design breaks its own assertion: FAIL, exit status 1, and the failure at
// the design's TypeScript line with its name, message, cycle and values, on every engine and in lockstep.
import { expect, test } from 'vitest';
import { execa } from 'execa';

const rtgpu = (...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', ...args], { reject: false });
const file = 'test/sim/fixtures/assertionFails.tb.ts';

test('rtgpu sim on every --sim choice: FAIL at the cycle of the failing edge, the assertion at its line', async () => {
  for (const [sim, engines] of [
    ['ts', ''],
    ['verilator', ''],
    ['icarus', ''],
    ['lockstep', ' on (js|wasm), verilator, icarus'],
  ] as const) {
    const r = await rtgpu('sim', file, '--sim', sim, '--seed', '3');
    expect(r.exitCode, `${sim}: ${r.stderr}`).toBe(1);
    expect(r.stdout.split('\n').at(-1)).toMatch(new RegExp(`^FAIL: test/sim/fixtures/assertionFails\\.tb\\.ts on (js|wasm|verilator|icarus|lockstep ts,verilator,icarus), seed 3, at cycle 6$`));
    // (Build progress lines may come first.)
    expect(r.stderr).toMatch(new RegExp(`(^|\\n)rtgpu: test/sim/fixtures/assertionFails\\.tb\\.ts:10: assertion AfCounter\\.below_five failed: the count stays below 5, at the clock edge ending cycle 6${engines}\\n {2}count_1 = 5$`));
  }
}, 600_000);
