// TextureArbiter: RT cores' txd requests onto one texture unit and the answers back, against its model on the TS simulator, Verilator and Icarus.
import { describe, expect, test } from 'vitest';
import { elaborate } from '../../src/hdl/index.ts';
import { runCosim, formatMismatch } from '../../src/hdl/cosim/runCosim.ts';
import { TextureArbiter } from '../../src/gpu/texture/textureArbiter.ts';
import { textureArbiterCosimDesign } from '../../src/gpu/texture/verification/textureArbiterCosim.ts';
import { seedFromEnv } from '../../src/util/seededRandom.ts';
import { expectLintClean, expectLockstepOnThree } from './threeSimulators.ts';

const seed = seedFromEnv();
console.log(`textureArbiter.test seed=${seed} (rerun with SEED=${seed})`);

describe('TextureArbiter', () => {
  test('20,000 random cycles on the TS simulator: every request forwarded in round-robin order with its core in the tag, every answer to its core', async () => {
    const r = await runCosim(textureArbiterCosimDesign, { cycles: 20_000, seed, sims: ['ts'] });
    expect(r.golden && r.golden.message, `SEED=${seed}`).toBeNull();
    expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
  });

  test('in lockstep on TS, Verilator and Icarus, and lint clean', async () => {
    await expectLockstepOnThree(textureArbiterCosimDesign, seed, 1500);
    await expectLintClean([textureArbiterCosimDesign.elaborate(), elaborate(TextureArbiter, { cores: 4, tagBits: 3 }).design]);
  }, 180_000);

  test('bad parameters are named', () => {
    expect(() => elaborate(TextureArbiter, { cores: 1, tagBits: 3 })).toThrow(/cores must be an integer from 2 to 16, got 1/);
    expect(() => elaborate(TextureArbiter, { cores: 4, tagBits: 0 })).toThrow(/tagBits must be an integer from 1 to 16, got 0/);
  });
});
