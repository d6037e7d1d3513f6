// The texture unit's cache: a small fully associative set of 4-word lines with several lookup ports read in the same cycle, filled one line at a time, round-robin replacement.
import { Bool, UInt, Vec, defineModule, input, lit, mux, output, type UIntValue } from '../../hdl/index.ts';
import { clog2 } from '../../hdl/lib/index.ts';
import { TEXTURE_LINE_WORDS } from './textureMemory.ts';
import { checkWhole } from './paramChecks.ts';

export interface TextureCacheParams {
  /** Lines held (≥ 1). */
  readonly lines: number;
  /** Lookup ports, each answered combinationally in the same cycle (≥ 1). */
  readonly ports: number;
  /** Width of a line address (the tag: the cache is fully associative). */
  readonly tagBits: number;
}

const LINE_BITS = 32 * TEXTURE_LINE_WORDS;

export function checkTextureCacheParams(p: TextureCacheParams): void {
  const whole = (name: string, v: number, lo: number, hi: number) => checkWhole('TextureCache', name, v, lo, hi);
  whole('lines', p.lines, 1, 256);
  whole('ports', p.ports, 1, 16);
  whole('tagBits', p.tagBits, 1, 32);
}

export const TextureCache = defineModule(
  'TextureCache',
  (p: TextureCacheParams) => {
    checkTextureCacheParams(p);
    return {
      /** Line addresses looked up this cycle. */
      lookup: input(Vec(p.ports, UInt(p.tagBits))),
      hit: output(Vec(p.ports, Bool)),
      /** The line of a hit (0 on a miss). */
      data: output(Vec(p.ports, UInt(LINE_BITS))),
      /** A line from memory, written at the clock edge over the next victim (the lookups see it from the next cycle). */
      fill_valid: input(Bool),
      fill_tag: input(UInt(p.tagBits)),
      fill_data: input(UInt(LINE_BITS)),
      /** Forget every line (texture memory is being loaded; no fill may be in flight). */
      flush: input(Bool),
    };
  },
  (m, io, p) => {
    const vw = Math.max(1, clog2(p.lines));
    const victim = m.reg(UInt(vw), { reset: 0 });
    const entries = Array.from({ length: p.lines }, (_, k) => {
      const chosen = io.fill_valid.and(victim.eq(k));
      return {
        valid: m.reg(Bool, { reset: 0, name: `valid${k}` }),
        tag: m.reg(UInt(p.tagBits), { enable: chosen, name: `tag${k}` }),
        line: m.reg(UInt(LINE_BITS), { enable: chosen, name: `line${k}` }),
        chosen,
      };
    });
    for (const e of entries) {
      m.when(io.flush, () => e.valid.set(false)).elsewhen(e.chosen, () => e.valid.set(true));
      e.tag.set(io.fill_tag);
      e.line.set(io.fill_data);
    }
    m.when(io.fill_valid, () => victim.set(mux(victim.eq(p.lines - 1), lit(0, vw), victim.add(p.lines === 1 ? 0 : 1))));
    for (let k = 0; k < p.ports; k++) {
      const want = io.lookup.at(k);
      const matches = entries.map((e) => e.valid.and(e.tag.eq(want)));
      io.hit.at(k).set(matches.reduce((a, b) => a.or(b)));
      // At most one line matches: a fill only brings a line that missed, and one fill is outstanding at a time.
      io.data.at(k).set(entries.reduce<UIntValue>((acc, e, n) => mux(matches[n]!, e.line, acc), lit(0, LINE_BITS)));
    }
  },
);
