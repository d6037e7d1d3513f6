// A register file for several hardware contexts: LUT RAM with asynchronous reads and one write port,
// and a valid bit per register so that a context's registers clear in one cycle (they read zero until written).
import { Bool, Bundle, UInt, Vec, cat, defineModule, input, lit, mux, output, type UIntValue } from '../../hdl/index.ts';
import { clog2, selectByIndex } from '../../hdl/lib/index.ts';

export interface RegisterFileParams {
  /** Hardware contexts (a power of two). */
  readonly contexts: number;
  /** Registers per context (a power of two); register 0 is never written, so it reads zero. */
  readonly count: number;
  readonly width: number;
  readonly readPorts: number;
}

export const contextBits = (contexts: number): number => Math.max(1, clog2(contexts));

const registerAddress = (contexts: number, count: number) =>
  Bundle({ context: UInt(contextBits(contexts)), reg: UInt(clog2(count)) });

export const RegisterFile = defineModule(
  'RegisterFile',
  (p: RegisterFileParams) => ({
    read: input(Vec(p.readPorts, registerAddress(p.contexts, p.count))),
    rdata: output(Vec(p.readPorts, UInt(p.width))),
    write: input(Bundle({ en: Bool, at: registerAddress(p.contexts, p.count), data: UInt(p.width) })),
    /** Every register of `clear.context` reads zero from the next cycle on (a write in the same cycle is kept). */
    clear: input(Bundle({ en: Bool, context: UInt(contextBits(p.contexts)) })),
  }),
  (m, io, p) => {
    const pow2 = (n: number) => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
    if (!pow2(p.contexts) || !pow2(p.count)) throw new Error(`RegisterFile: contexts and count must be powers of two, got ${p.contexts} and ${p.count}`);
    const address = (ctx: UIntValue, reg: UIntValue): UIntValue => (p.contexts === 1 ? reg : cat(ctx, reg));
    const words = m.memory(UInt(p.width), p.contexts * p.count, { name: 'words' });
    const valid = Array.from({ length: p.contexts }, (_, c) => m.reg(UInt(p.count), { reset: 0, name: `valid${c}` }));
    const w = io.write;
    const writes = w.en.and(w.at.reg.ne(0));
    m.when(writes, () => words.write(address(w.at.context, w.at.reg), w.data));
    valid.forEach((v, c) => {
      const mine = (ctx: UIntValue) => (p.contexts === 1 ? lit(1, 1).asBool() : ctx.eq(c));
      const cleared = mux(io.clear.en.and(mine(io.clear.context)), lit(0, p.count), v);
      v.set(mux(writes.and(mine(w.at.context)), cleared.or(lit(1, p.count).shl(w.at.reg)), cleared));
    });
    io.read.elems.forEach((r, k) => {
      const isValid = selectByIndex(r.context, valid).bit(r.reg);
      io.rdata.at(k).set(mux(isValid, words.readAsync(address(r.context, r.reg)), lit(0, p.width)));
    });
  },
);
