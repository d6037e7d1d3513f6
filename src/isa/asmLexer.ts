// Splits one line of RT core assembly into tokens: words, strings and the punctuation `,` `:` `#`.
import { LineError, quote } from './asmError.ts';

export type Token =
  /** A mnemonic, directive, register, label or number, as written. */
  | { readonly kind: 'word'; readonly text: string; readonly col: number }
  /** A string literal, already decoded to bytes (UTF-8, escapes applied). */
  | { readonly kind: 'string'; readonly bytes: readonly number[]; readonly col: number }
  | { readonly kind: ',' | ':' | '#'; readonly col: number };

const PUNCTUATION = new Set([',', ':', '#']);
const ESCAPES: ReadonlyMap<string, number> = new Map([
  ['n', 10],
  ['t', 9],
  ['r', 13],
  ['\\', 92],
  ['"', 34],
  ['0', 0],
]);
const utf8 = new TextEncoder();

/** A word ends at white space, punctuation, a string, or a comment. */
function isWordEnd(line: string, i: number): boolean {
  const c = line[i]!;
  return /\s/.test(c) || PUNCTUATION.has(c) || c === '"' || c === ';' || (c === '/' && line[i + 1] === '/');
}

/** Tokens of a line; comments (`//`, `;`) dropped. Throws LineError for an unterminated string or bad escape. */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === ';' || (c === '/' && line[i + 1] === '/')) {
      break;
    } else if (c === ',' || c === ':' || c === '#') {
      tokens.push({ kind: c, col: i + 1 });
      i++;
    } else if (c === '"') {
      const s = readString(line, i);
      tokens.push({ kind: 'string', bytes: s.bytes, col: i + 1 });
      i = s.end;
    } else {
      const start = i;
      while (i < line.length && !isWordEnd(line, i)) i++;
      tokens.push({ kind: 'word', text: line.slice(start, i), col: start + 1 });
    }
  }
  return tokens;
}

/** The string literal opening at `start`: its bytes and the index after the closing quote. */
function readString(line: string, start: number): { bytes: number[]; end: number } {
  const bytes: number[] = [];
  let i = start + 1;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '"') return { bytes, end: i + 1 };
    if (c === '\\') {
      bytes.push(readEscape(line, i));
      i += line[i + 1] === 'x' ? 4 : 2;
      continue;
    }
    // One code point (a surrogate pair stays together).
    const cp = line.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    for (const b of utf8.encode(ch)) bytes.push(b);
    i += ch.length;
  }
  throw new LineError(start + 1, 'unterminated string (missing closing ")');
}

function readEscape(line: string, at: number): number {
  const e = line[at + 1];
  if (e === undefined) throw new LineError(at + 1, 'unterminated string (missing closing ")');
  if (e === 'x') {
    const hex = line.slice(at + 2, at + 4);
    if (/^[0-9a-fA-F]{2}$/.test(hex)) return parseInt(hex, 16);
    throw new LineError(at + 1, `\\x needs two hex digits, got ${quote(hex)}`);
  }
  const byte = ESCAPES.get(e);
  if (byte === undefined) throw new LineError(at + 1, `unknown escape ${quote(`\\${e}`)} (known: \\n \\t \\r \\\\ \\" \\0 \\xHH)`);
  return byte;
}
