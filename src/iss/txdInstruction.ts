// The txd instruction's golden meaning on its register operands: the ISS executes it, and whatever plays or is the texture unit is checked against it.
import { TXD_HANDLE, decodeTxdControl, txdHandleAddresses } from '../isa/textureOperands.ts';
import { sampleTxd, type TxdResult } from '../golden/texture/index.ts';
import type { Vec4 } from '../golden/rayCaster.ts';

/** Words that decode as an invalid header and sampler (reserved bits set): what a pointer past texture memory reads. */
const INVALID_HEADER = [0, 0, 0, 0xffffffff];
const INVALID_SAMPLER = [0, 0xffffffff];

/**
 * txd RVd, RVa, RVb, #mask on texture memory `texture`: RVa = (s, t, handle, control), RVb = (ds/dx,
 * ds/dy, dt/dx, dt/dy), `dest` RVd's value before (kept in the lanes outside `writeMask`).
 */
export function executeTxd(texture: Uint32Array, coords: Vec4, derivatives: Vec4, writeMask: number, dest: Vec4): TxdResult {
  const [s, t, handle, control] = coords;
  const [dsdx, dsdy, dtdx, dtdy] = derivatives;
  const at = txdHandleAddresses(handle);
  const inside = (address: number, words: number) => address + words <= texture.length;
  const header = inside(at.header, TXD_HANDLE.header.words) ? texture.subarray(at.header, at.header + TXD_HANDLE.header.words) : INVALID_HEADER;
  const sampler = inside(at.sampler, TXD_HANDLE.sampler.words) ? texture.subarray(at.sampler, at.sampler + TXD_HANDLE.sampler.words) : INVALID_SAMPLER;
  const { lodClamp, offset } = decodeTxdControl(control);
  return sampleTxd(texture, header, sampler, s, t, dsdx, dsdy, dtdx, dtdy, offset, writeMask, { dest, lodClamp });
}
