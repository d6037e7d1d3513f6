// TextureArbiter as a co-simulation design: three cores' random txd requests, a unit with random back-pressure and answers for any core; a model checks routing and round-robin order every cycle (`rtgpu cosim texture_arbiter`).
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { TextureArbiter, type TextureArbiterParams } from '../textureArbiter.ts';

const PARAMS: TextureArbiterParams = { cores: 3, tagBits: 3 };
const FIELDS = ['coords', 'derivatives', 'mask', 'dest', 'tag'] as const;
const WIDTHS: Record<(typeof FIELDS)[number], number> = { coords: 128, derivatives: 128, mask: 4, dest: 128, tag: PARAMS.tagBits };

const random = (rng: Rng, bits: number): bigint => {
  let v = 0n;
  for (let b = 0; b < bits; b += 32) v |= BigInt(rng.u32()) << BigInt(b);
  return v & ((1n << BigInt(bits)) - 1n);
};
const b = (x: boolean): bigint => (x ? 1n : 0n);

function stimulus(cycle: number, rng: Rng): Record<string, bigint> {
  const inputs: Record<string, bigint> = { rst_n: b(cycle >= 2 && rng.int(3000) !== 0) };
  for (let k = 0; k < PARAMS.cores; k++) {
    // Core k asks often or rarely, in phases, so that one core alone, two, or all three compete.
    inputs[`cores_${k}_request_valid`] = b(rng.int([2, 6, 1, 20][(Math.floor(cycle / 300) + k) % 4]!) === 0);
    for (const f of FIELDS) inputs[`cores_${k}_request_bits_${f}`] = random(rng, WIDTHS[f]);
    inputs[`cores_${k}_response_ready`] = b(rng.int(4) !== 0);
  }
  inputs.unit_request_ready = b(rng.int(3) !== 0);
  inputs.unit_response_valid = b(rng.int(2) === 0);
  inputs.unit_response_bits_rgba = random(rng, 128);
  inputs.unit_response_bits_status = random(rng, 3);
  inputs.unit_response_bits_tag = (BigInt(rng.int(PARAMS.cores)) << BigInt(PARAMS.tagBits)) | random(rng, PARAMS.tagBits);
  return inputs;
}

/** Round robin from the core after the last one granted; the request forwarded whole with the core above its tag; answers to the core their tag names. */
function golden(): GoldenModel {
  let last = PARAMS.cores - 1;
  return {
    check(_cycle, ins, outs) {
      if (ins.rst_n === 0n) {
        last = PARAMS.cores - 1;
        return null;
      }
      const asking = (k: number) => ins[`cores_${k}_request_valid`] === 1n;
      const order = Array.from({ length: PARAMS.cores }, (_, i) => (last + 1 + i) % PARAMS.cores);
      const granted = order.find(asking);
      if (outs.unit_request_valid !== b(granted !== undefined)) return `unit_request_valid ${outs.unit_request_valid}, cores asking: ${order.filter(asking).join(', ') || 'none'}`;
      for (let k = 0; k < PARAMS.cores; k++) {
        const ready = b(k === granted && ins.unit_request_ready === 1n);
        if (outs[`cores_${k}_request_ready`] !== ready) return `cores_${k}_request_ready ${outs[`cores_${k}_request_ready`]}, expected ${ready} (granted ${granted})`;
      }
      if (granted !== undefined) {
        for (const f of FIELDS) {
          const want = f === 'tag' ? (BigInt(granted) << BigInt(PARAMS.tagBits)) | ins[`cores_${granted}_request_bits_tag`]! : ins[`cores_${granted}_request_bits_${f}`]!;
          if (outs[`unit_request_bits_${f}`] !== want) return `unit_request_bits_${f} is not core ${granted}'s`;
        }
        if (ins.unit_request_ready === 1n) last = granted;
      }
      const to = Number(ins.unit_response_bits_tag! >> BigInt(PARAMS.tagBits));
      for (let k = 0; k < PARAMS.cores; k++) {
        const valid = b(k === to && ins.unit_response_valid === 1n);
        if (outs[`cores_${k}_response_valid`] !== valid) return `cores_${k}_response_valid ${outs[`cores_${k}_response_valid`]}, the answer is for core ${to}`;
        if (valid === 1n && (outs[`cores_${k}_response_bits_rgba`] !== ins.unit_response_bits_rgba || outs[`cores_${k}_response_bits_status`] !== ins.unit_response_bits_status || outs[`cores_${k}_response_bits_tag`] !== (ins.unit_response_bits_tag! & ((1n << BigInt(PARAMS.tagBits)) - 1n)))) return `core ${k}'s answer differs from the unit's`;
      }
      if (outs.unit_response_ready !== ins[`cores_${to}_response_ready`]) return `unit_response_ready ${outs.unit_response_ready}, core ${to}'s ready ${ins[`cores_${to}_response_ready`]}`;
      return null;
    },
  };
}

export const textureArbiterCosimDesign: CosimDesign = {
  name: 'texture_arbiter',
  description: `TextureArbiter, ${PARAMS.cores} RT cores onto one texture unit: random requests and answers, routing and round-robin order checked every cycle`,
  elaborate: () => elaborate(TextureArbiter, PARAMS).design,
  stimulus,
  golden,
};

