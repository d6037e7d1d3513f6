// The hand-written RT core test programs: file, pixel count, scene, constants and the expected vectors read from their header comments.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROGRAMS_DIR = dirname(fileURLToPath(import.meta.url));

/** The programs in the order a reader meets the hazards (forwarding, loads, floats, branches, calls, ...). */
export const PROGRAM_FILES = [
  'fwd_scalar.s',
  'fwd_vector.s',
  'load_use.s',
  'fp_chain.s',
  'branch_cmp_i.s',
  'branch_cmp_f.s',
  'call_ret.s',
  'div_long.s',
  'trace_save.s',
  'mem_fault.s',
  'illegal_opcode.s',
  'pc_fault.s',
  'multi_pixel.s',
] as const;

export type Vec4 = [number, number, number, number];

export interface HandProgram {
  readonly file: string;
  readonly path: string;
  readonly source: string;
  /** Pixels to run: `// pixels: N` (default 1). */
  readonly pixels: number;
  /** `// scene: default` runs on the default scene; otherwise the scene has no triangles. */
  readonly scene: 'default' | 'empty';
  /** `// constants: w0 w1 ...` (hex words), constant memory from 0x20000000. */
  readonly constants: Uint32Array;
  /** `// expect pixel P: w0 w1 w2 w3` (hex): the 16 bytes at 0xFFF0 when pixel P's thread ends. */
  readonly expected: readonly { readonly pixel: number; readonly ret: Vec4 }[];
  /** `// expect faults: P ...`: the pixels whose thread sets its fault flag (default none). */
  readonly faults: readonly number[];
}

const HEX_WORD = /^[0-9a-f]{1,8}$/i;

function words(file: string, line: string, text: string): number[] {
  const ws = text.trim().split(/\s+/).filter((w) => w !== '');
  for (const w of ws) if (!HEX_WORD.test(w)) throw new Error(`${file}: bad hex word '${w}' in: ${line}`);
  return ws.map((w) => parseInt(w, 16) >>> 0);
}

/** Read the header comments of one program. */
export function parseProgram(file: string, source: string): Omit<HandProgram, 'path'> {
  let pixels = 1;
  let scene: 'default' | 'empty' = 'empty';
  let constants: number[] = [];
  const expected: { pixel: number; ret: Vec4 }[] = [];
  let faults: number[] = [];
  for (const line of source.split(/\r?\n/)) {
    let m: RegExpExecArray | null;
    if ((m = /^\s*\/\/\s*pixels:\s*(\d+)\s*$/.exec(line))) pixels = Number(m[1]);
    else if ((m = /^\s*\/\/\s*scene:\s*(\w+)\s*$/.exec(line))) {
      if (m[1] !== 'default' && m[1] !== 'empty') throw new Error(`${file}: unknown scene '${m[1]}'`);
      scene = m[1];
    } else if ((m = /^\s*\/\/\s*constants:(.*)$/.exec(line))) constants = words(file, line, m[1]!);
    else if ((m = /^\s*\/\/\s*expect faults:(.*)$/.exec(line))) faults = m[1]!.trim().split(/\s+/).filter((w) => w !== '').map(Number);
    else if ((m = /^\s*\/\/\s*expect pixel (\d+):(.*)$/.exec(line))) {
      const ws = words(file, line, m[2]!);
      if (ws.length !== 4) throw new Error(`${file}: an expected vector has 4 words: ${line}`);
      expected.push({ pixel: Number(m[1]), ret: ws as Vec4 });
    }
  }
  if (expected.length === 0) throw new Error(`${file}: no '// expect pixel N: ...' line`);
  return { file, source, pixels, scene, constants: Uint32Array.from(constants), expected, faults };
}

export const PROGRAMS: readonly HandProgram[] = PROGRAM_FILES.map((file) => {
  const path = join(PROGRAMS_DIR, file);
  return { ...parseProgram(file, readFileSync(path, 'utf8')), path };
});
