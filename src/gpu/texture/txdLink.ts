// The link between an RT core and a texture unit: txd's operands out, its four lanes and status back, matched by tag.
import { Bundle, Decoupled, UInt, flip } from '../../hdl/index.ts';

/** One txd as the RT core reads it (docs/isa.md, "txd"): RVa, RVb, the write mask, RVd's value before, and the tag the answer returns. */
export const TxdRequest = (tagBits: number) =>
  Bundle({
    /** RVa: s [31:0], t, handle, control [127:96]. */
    coords: UInt(128),
    /** RVb: ds/dx [31:0], ds/dy, dt/dx, dt/dy [127:96]. */
    derivatives: UInt(128),
    mask: UInt(4),
    /** RVd before the fetch: its lanes outside `mask` are the answer's. */
    dest: UInt(128),
    tag: UInt(tagBits),
  });

/** A txd's answer: RVd's new value (all four lanes, masked already) and the TxdStatus bits. */
export const TxdResponse = (tagBits: number) =>
  Bundle({
    rgba: UInt(128),
    status: UInt(3),
    tag: UInt(tagBits),
  });

/** The RT core's side: requests out, answers in (answers may come in any order). */
export const TextureLink = (tagBits: number) =>
  Bundle({
    request: Decoupled(TxdRequest(tagBits)),
    response: flip(Decoupled(TxdResponse(tagBits))),
  });
