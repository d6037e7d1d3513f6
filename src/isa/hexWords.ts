// Files of 32-bit words: hex text (one or more words per line) and raw little-endian bytes, as `rtgpu asm` writes and `rtgpu disasm` reads.

/** A malformed word file; the message is `file:line: …` (`file: …` for raw bytes). */
export class HexWordsError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    detail: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${detail}`);
    this.name = 'HexWordsError';
  }
}

const WORD = /^(?:0x)?[0-9a-f]{1,8}$/i;

/** Words separated by white space; optional `0x`; blank lines and `//` or `#` comments ignored. */
export function parseHexWords(text: string, file: string): Uint32Array {
  const out: number[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const body = raw.replace(/\/\/.*|#.*/, '').trim();
    if (!body) return;
    for (const w of body.split(/\s+/)) {
      if (!WORD.test(w)) throw new HexWordsError(file, i + 1, `${shorten(w)} is not a 32-bit hex word`);
      out.push(parseInt(w.replace(/^0x/i, ''), 16) >>> 0);
    }
  });
  return Uint32Array.from(out);
}

const shorten = (w: string): string => `'${w.length > 40 ? `${w.slice(0, 40)}…` : w}'`;

/** One word per line as 8 lowercase hex digits, each line ending in a newline. */
export function formatHexWords(words: Uint32Array): string {
  let out = '';
  for (const w of words) out += `${w.toString(16).padStart(8, '0')}\n`;
  return out;
}

/** Raw little-endian words; the length must be a multiple of 4. */
export function wordsFromBytes(bytes: Uint8Array, file: string): Uint32Array {
  if (bytes.length % 4) throw new HexWordsError(file, undefined, `${bytes.length} bytes is not a whole number of 32-bit words`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Uint32Array.from({ length: bytes.length / 4 }, (_, i) => view.getUint32(4 * i, true));
}

/** Words as raw little-endian bytes. */
export function wordsToBytes(words: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  words.forEach((w, i) => view.setUint32(4 * i, w, true));
  return bytes;
}
