// Fuzz targets: every parser of user input, with the errors it may raise (naming the file, and the line
// or word where the format has them). Anything else it throws is a crash.
import { assemble, AsmError } from '../../src/isa/assembler.ts';
import { disassemble } from '../../src/isa/disassembler.ts';
import { HexWordsError, parseHexWords, wordsFromBytes } from '../../src/isa/hexWords.ts';
import { SceneError, imageToScene, objText, parseObjWithMaterials } from '../../src/golden/scene.ts';
import { parseMtl } from '../../src/scenes/materials.ts';
import { parseBvhSceneImage } from '../../src/bvh/sceneImage.ts';
import { Bvh4FormatError } from '../../src/bvh/node4.ts';
import { parseOperands } from '../../src/cli/commands/fp.ts';
import { parseParams } from '../../src/cli/designFile.ts';
import { CliError } from '../../src/cli/cliError.ts';
import { isDesignFileError, loadDesignInput } from './designFile.ts';
import { cliDictionary, decodeCommandLine, isCleanUsageError, withoutWords } from './cliFlags.ts';

export interface FuzzTarget {
  readonly name: string;
  /** What the input is, for the report. */
  readonly what: string;
  /** Parse one input; returns (or resolves) normally, or throws. */
  run(input: Uint8Array): void | Promise<void>;
  /** Whether an error is one the parser means to raise: its kind, naming the file and where. */
  expected(e: unknown): boolean;
  /** Tokens the mutator splices in (keywords, numbers at the edges of their ranges). */
  readonly dictionary: readonly string[];
  /**
   * The message with the input it echoes unquoted taken out, where the words of the input are known
   * (else each echo of a word of the sources' vocabulary would count as a new message shape).
   */
  echoless?(message: string): string;
  /**
   * What one input costs in inputs of a parser (default 1): CI's burst and `--runs` are divided by it
   * (design-file imports a module per input, and the process keeps every one).
   */
  readonly cost?: number;
  /** Fresh inputs CI fuzzes after the replay (default fuzzCorpus.test.ts's BURST). */
  readonly ciBurst?: number;
  /**
   * Its inputs are modules for node's own loader, which vitest replaces (resolving and failing
   * differently): CI replays them through the fuzz runner in a child process.
   */
  readonly replayInNode?: boolean;
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const words = (b: Uint8Array) => {
  const w = new Uint32Array(b.length >> 2);
  for (let i = 0; i < w.length; i++) w[i] = (b[4 * i]! | (b[4 * i + 1]! << 8) | (b[4 * i + 2]! << 16) | (b[4 * i + 3]! << 24)) >>> 0;
  return w;
};

/** A message that names the file and, after it, a line (`file:12:` or `file:12:3:`). */
const atLine = (file: string, m: string) => m.split('\n').every((l, i) => (i === 0 ? l.startsWith(`${file}:`) && /^[^:]+:\d+(:\d+)?: /.test(l) : true));
/** A message that names the file (formats without lines: word offsets, whole-file problems). */
const namesFile = (file: string, m: string) => m.startsWith(`${file}:`) || m.startsWith(`${file} `);

const NUMBERS = ['0', '-0', '1', '-1', '4294967295', '4294967296', '2147483647', '-2147483648', '0x7fffffff', '0xffffffff', '1e38', '3.4028236e38', '1e-45', 'nan', 'inf', '1.5', '.5', '5.', '-', '+', '0b101', '65535', '65536', '-32768', '32767'];

const ASM = 'fuzz.s';
const OBJ = 'fuzz.obj';
const MTL = 'fuzz.mtl';
const HEX = 'fuzz.hex';
const BIN = 'fuzz.bin';
const FP = 'fuzz.txt';

export const fuzzTargets: readonly FuzzTarget[] = [
  {
    name: 'asm',
    what: 'RT core assembly (assemble)',
    run: (b) => void assemble(text(b), ASM, { readInclude: () => ({ file: 'inc.s', id: 'inc.s', source: 'fin\n' }) }),
    // One line per error, in the file given or the included one, then maybe the count of the rest.
    expected: (e) => e instanceof AsmError && e.message.split('\n').every((l) => /^(fuzz|inc)\.s:\d+:\d+: error: /.test(l) || /^\(\d+ more errors? not shown\)$/.test(l)),
    dictionary: ['ii_addi', 'ff_add', 'vv_mul_ele', 'v_reduce', 's_load_4byte', 's_store_4byte', 'v_store_16byte', 'cmp_i', 'bl', 'jmp', 'jmp_link', 'ret', 'trace', 'fin', 's_push', 'ii_mod', '.word', '.byte', '.space', '.string', '.include "x.s"', 'R0', 'R31', 'RV15', 'RS3', '#', ',', ':', 'lab:', 'lab', '"\\x', '"\\', ';', '//', '@', ...NUMBERS],
  },
  {
    name: 'disasm',
    what: 'instruction words (disassemble: every word must print)',
    run: (b) => void disassemble(words(b)),
    expected: () => false,
    dictionary: ['\x00\x00\x00\xe8', '\xff\xff\xff\xff', '\x00\x00\x00\x00'],
  },
  {
    name: 'obj',
    what: 'Wavefront OBJ (objText + parseObjWithMaterials)',
    run: (b) => void parseObjWithMaterials(objText(b, OBJ), OBJ),
    expected: (e) => e instanceof SceneError && namesFile(OBJ, e.message),
    dictionary: ['v ', 'vn ', 'vt ', 'f ', 'f 1 2 3', 'f 1/1/1 2/2/2 3/3/3', 'f -1 -2 -3', 'o ', 'g ', 's off', 'usemtl ', 'mtllib ', '#', '\\\n', '\r\n', '\t', ...NUMBERS],
  },
  {
    name: 'mtl',
    what: 'Wavefront MTL (parseMtl; map_Kd files are not read)',
    // A loader that reads nothing: random map_Kd names must not open files (its refusal is a SceneError at the line).
    run: (b) => void parseMtl(text(b), MTL, () => {
      throw new Error('texture files are not read while fuzzing');
    }),
    expected: (e) => e instanceof SceneError && atLine(MTL, e.message),
    dictionary: ['newmtl ', 'Kd ', 'Ks ', 'Ke ', 'Ns ', 'd ', 'illum ', 'map_Kd ', '#', ...NUMBERS],
  },
  {
    name: 'hex',
    what: 'hex word files (parseHexWords)',
    run: (b) => void parseHexWords(text(b), HEX),
    expected: (e) => e instanceof HexWordsError && atLine(HEX, e.message),
    dictionary: ['deadbeef', '0x', '00000000', 'ffffffff', '100000000', '@0', '//', '#', ';', '_', ...NUMBERS],
  },
  {
    name: 'bin',
    what: 'little-endian binary words (wordsFromBytes)',
    run: (b) => void wordsFromBytes(b, BIN),
    expected: (e) => e instanceof HexWordsError && namesFile(BIN, e.message),
    dictionary: ['\x00', '\xff\xff\xff\xff'],
  },
  {
    name: 'triangles',
    what: 'triangle-memory images (imageToScene)',
    run: (b) => void imageToScene(words(b), BIN),
    expected: (e) => e instanceof SceneError && namesFile(BIN, e.message),
    dictionary: ['\x01\x00\x00\x00', '\x03\x00\x00\x00', '\x00\x00\x80\x7f', '\x00\x00\xc0\x7f', '\x00\x00\x80\x3f', '\xff\xff\xff\xff', '\x00\x00\x00\x00'],
  },
  {
    name: 'bvh-image',
    what: 'BVH scene images (parseBvhSceneImage)',
    run: (b) => void parseBvhSceneImage(words(b), BIN),
    expected: (e) => (e instanceof SceneError || e instanceof Bvh4FormatError) && namesFile(BIN, e.message),
    dictionary: ['\x01\x00\x00\x00', '\x02\x00\x00\x00', '\x00\x00\x80\x7f', '\x00\x00\x80\x3f', '\xff\xff\xff\xff', '\x00\x00\x00\x00', '\x00\x80\x00\x00'],
  },
  {
    name: 'fp-operands',
    what: "operand lines of 'rtgpu fp' (parseOperands)",
    run: (b) => void parseOperands(text(b), FP, 2),
    expected: (e) => e instanceof CliError && atLine(FP, e.message),
    dictionary: ['3f800000', '0x7f800000', 'ffffffff', '123456789', '#', ...NUMBERS],
  },
  {
    name: 'design-params',
    what: "--param KEY=VALUE of the design-file commands (parseParams)",
    run: (b) => void parseParams(text(b).split('\n')),
    expected: (e) => e instanceof CliError && e.message.startsWith('--param'),
    dictionary: ['width=8', '=', 'a.b=1', '{"x":1}', '[1,2]', 'true', 'false', 'null', '0x10', '__proto__=1', 'constructor=1', '"', ...NUMBERS],
  },
  cliFlagsTarget(),
  {
    name: 'design-file',
    what: 'design files of rtgpu emit/lint/cosim/synth (a .ts file loaded and elaborated by loadUserDesign)',
    run: loadDesignInput,
    expected: isDesignFileError,
    dictionary: ['defineModule(', 'input(', 'output(', 'UInt(', 'SInt(', 'Bool()', 'Bundle({', 'Decoupled(', 'reg(', 'mux(', 'wire(', 'when(', '.set(', '.get()', 'export ', 'export default ', 'export const params = ', 'import ', "from 'rtgpu/hdl'", '=>', '(', ')', '{', '}', '[', ']', ';', '`', '"', "'", '//', '/*', 'width', 'params.width', 'throw new Error("x")', 'await ', 'async ', 'null', 'undefined', '__proto__', ...NUMBERS],
    cost: 100,
    ciBurst: 500,
    replayInNode: true,
  },
];

/** `rtgpu <command> …`: the command's parse only (a plan or a usage error), never the work. */
function cliFlagsTarget(): FuzzTarget {
  // expected() sees the error only; the argv of the input that raised it is kept here.
  let last = decodeCommandLine(new Uint8Array());
  return {
    name: 'cli-flags',
    what: "rtgpu command lines: UTF-8, one argv word per line, the first the command (its parse: flags and their checks)",
    run: (b) => {
      last = decodeCommandLine(b);
      last.command?.parse(last.argv);
    },
    expected: (e) => last.command !== undefined && isCleanUsageError(e, last.argv, last.command.options),
    dictionary: cliDictionary,
    echoless: (m) => withoutWords(m.split('\n')[0]!, last.argv),
  };
}

/**
 * Targets that crash (a TypeError on an 'X') or hang (on an 'H') on purpose: the fuzz runner's own test
 * uses them to show that it reports both. Not in fuzzTargets; only by name.
 */
export const selfTestTargets: readonly FuzzTarget[] = [
  {
    name: 'selftest-crash',
    what: 'a parser with a bug',
    run: (b) => {
      if (b.includes(0x58)) (undefined as unknown as { x: number }).x;
    },
    expected: () => false,
    dictionary: ['X'],
  },
  {
    name: 'selftest-hang',
    what: 'a parser that loops',
    run: (b) => {
      if (b.includes(0x48)) for (;;);
    },
    expected: () => false,
    dictionary: ['H'],
  },
];

export function fuzzTarget(name: string): FuzzTarget {
  const t = [...fuzzTargets, ...selfTestTargets].find((x) => x.name === name);
  if (!t) throw new Error(`unknown fuzz target '${name}' (targets: ${fuzzTargets.map((x) => x.name).join(', ')})`);
  return t;
}
