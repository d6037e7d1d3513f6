// Several RT cores' texture links onto one texture unit: requests round robin, the core's index in the tag, answers routed back by it.
import { Vec, cat, defineModule, input, output } from '../../hdl/index.ts';
import { RoundRobinArbiter, selectByIndex } from '../../hdl/lib/index.ts';
import { indexBits } from '../selection.ts';
import { TextureLink, TxdRequest } from './txdLink.ts';

export interface TextureArbiterParams {
  /** RT cores sharing the unit: 2 to 16. */
  readonly cores: number;
  /** Bits of each core's own tag (its context). */
  readonly tagBits: number;
}

/** Bits of the unit's tag: the core's index above the core's tag. */
export const textureArbiterTagBits = (p: TextureArbiterParams): number => p.tagBits + indexBits(p.cores);

export const TextureArbiter = defineModule(
  'TextureArbiter',
  (p: TextureArbiterParams) => {
    checkParams(p);
    return {
      /** The cores' links as they drive them: requests in, answers out. */
      cores: input(Vec(p.cores, TextureLink(p.tagBits))),
      unit: output(TextureLink(textureArbiterTagBits(p))),
    };
  },
  (m, io, p) => {
    const request = TxdRequest(p.tagBits);
    const arbiter = m.instance(RoundRobinArbiter, { n: p.cores, payload: request }, { name: 'requests' });
    io.cores.elems.forEach((core, k) => {
      arbiter.io.in.at(k).valid.set(core.request.valid);
      m.connect(arbiter.io.in.at(k).bits, core.request.bits);
      core.request.ready.set(arbiter.io.in.at(k).ready);
    });
    const chosen = arbiter.io.out.bits;
    io.unit.request.valid.set(arbiter.io.out.valid);
    const forwarded = io.unit.request.bits;
    for (const field of ['coords', 'derivatives', 'mask', 'dest'] as const) forwarded[field].set(chosen[field]);
    forwarded.tag.set(cat(arbiter.io.chosen, chosen.tag));
    arbiter.io.out.ready.set(io.unit.request.ready);

    const answer = io.unit.response.bits;
    const core = answer.tag.bits(answer.tag.width - 1, p.tagBits);
    io.cores.elems.forEach((c, k) => {
      c.response.valid.set(io.unit.response.valid.and(core.eq(k)));
      c.response.bits.rgba.set(answer.rgba);
      c.response.bits.status.set(answer.status);
      c.response.bits.tag.set(answer.tag.trunc(p.tagBits));
    });
    io.unit.response.ready.set(selectByIndex(core, io.cores.elems.map((c) => c.response.ready)));
  },
);

function checkParams(p: TextureArbiterParams): void {
  if (!Number.isInteger(p.cores) || p.cores < 2 || p.cores > 16) throw new Error(`TextureArbiter: cores must be an integer from 2 to 16, got ${p.cores}`);
  if (!Number.isInteger(p.tagBits) || p.tagBits < 1 || p.tagBits > 16) throw new Error(`TextureArbiter: tagBits must be an integer from 1 to 16, got ${p.tagBits}`);
}
