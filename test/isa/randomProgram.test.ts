// Random RT core programs on the ISS: they assemble, always end within the bound, and together cover the whole ISA. Seed printed; SEED overrides.
import { describe, expect, test } from 'vitest';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { generateProgram, generateScene, NOT_GENERATED, RANDOM_PROGRAM_MAX_INSTRUCTIONS, type RandomProgramOptions } from '../../src/stimulus/randomProgram.ts';
import { assemble } from '../../src/isa/assembler.ts';
import { BRANCH_TAKEN, BY_OPCODE, INSTRUCTIONS, fieldOf } from '../../src/isa/instructions.ts';
import { runIss, type Retired } from '../../src/iss/index.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { generateTextureMemory } from '../../src/stimulus/randomTextureMemory.ts';
import { triangleCount, vertexCount, type Scene } from '../../src/golden/scene.ts';

const seed = seedFromEnv();
console.log(`randomProgram.test seed=${seed} (rerun with SEED=${seed})`);

const PROGRAMS = 320;
const PIXELS = 2;
const FLAG_NAMES = ['Z', 'unordered', 'P', 'N'];
const CONDITIONAL = ['be', 'bne', 'bl', 'bge', 'bg', 'ble'];

/** Scalar registers an instruction word reads (R0 excluded), for the dependency statistics. */
function scalarSources(word: number): number[] {
  const spec = BY_OPCODE.get(fieldOf(word, 'opcode'));
  if (!spec) return [];
  const A = fieldOf(word, 'A');
  const B = fieldOf(word, 'B');
  const C = fieldOf(word, 'C');
  const regs: number[] = [];
  spec.operands.forEach((op, i) => {
    if (op.kind !== 'rs') return;
    // The first operand of a non-store with field A is the destination; s_write_high/low also read it.
    const isDest = i === 0 && op.fields[0] === 'A' && spec.cls !== 'store';
    if (isDest && !op.fields.includes('B')) return;
    regs.push(op.fields.includes('B') ? B : op.fields.includes('C') ? C : A);
  });
  return regs.filter((r) => r !== 0);
}

interface Coverage {
  opcodes: Set<number>;
  /** `be:Z:taken` etc. */
  branches: Set<string>;
  memoryFaults: number;
  faultEnds: number;
  traces: number;
  traceHits: number;
  programsWithFaults: number;
  maxRetired: number;
  retired: number;
  /** Retired instructions reading the scalar register written by the instruction before / two before. */
  raw1: number;
  raw2: number;
  /** TxdStatus values txd returned. */
  textureStatus: Set<number>;
}

const newCoverage = (): Coverage => ({ opcodes: new Set(), branches: new Set(), memoryFaults: 0, faultEnds: 0, traces: 0, traceHits: 0, programsWithFaults: 0, maxRetired: 0, retired: 0, raw1: 0, raw2: 0, textureStatus: new Set() });

/** Assemble and run one program on the ISS, accumulating coverage; returns the pixel results. */
function runOne(programSeed: number, opts: Partial<RandomProgramOptions>, cov: Coverage, scene?: Scene) {
  const rng = createRng(programSeed);
  const { source, constants } = generateProgram(rng, opts);
  const texture = opts.texture ? generateTextureMemory(rng) : undefined;
  const program = assemble(source, `random-${programSeed}.s`);
  const recent: (number | undefined)[] = [undefined, undefined];
  let lastThread = -1;
  const result = runIss(
    {
      program: program.words,
      constants,
      scene: scene ?? generateScene(rng),
      maxInstructions: RANDOM_PROGRAM_MAX_INSTRUCTIONS,
      ...(texture ? { texture } : {}),
      onRetire: (t, r: Retired) => {
        if (t.pixel !== lastThread) {
          recent[0] = recent[1] = undefined;
          lastThread = t.pixel;
        }
        cov.maxRetired = Math.max(cov.maxRetired, t.retired);
        if (r.event === 'fault-end') {
          cov.faultEnds++;
          return;
        }
        cov.retired++;
        const op = fieldOf(r.word, 'opcode');
        cov.opcodes.add(op);
        const m = BY_OPCODE.get(op)!.mnemonic;
        // Branches leave the flag alone, so the thread's flag now is the one the branch tested.
        if (m in BRANCH_TAKEN) cov.branches.add(`${m}:${FLAG_NAMES[t.flag]}:${BRANCH_TAKEN[m]!(t.flag) ? 'taken' : 'not taken'}`);
        if (r.memoryFault) cov.memoryFaults++;
        if (r.textureStatus !== undefined) cov.textureStatus.add(r.textureStatus);
        if (r.event === 'trace') {
          cov.traces++;
          if (r.trace!.hit[3] !== 0) cov.traceHits++;
        }
        const srcs = scalarSources(r.word);
        if (recent[0] !== undefined && srcs.includes(recent[0])) cov.raw1++;
        if (recent[1] !== undefined && srcs.includes(recent[1])) cov.raw2++;
        recent[1] = recent[0];
        recent[0] = r.scalar?.reg;
      },
    },
    PIXELS,
  );
  if (result.faults.length > 0) cov.programsWithFaults++;
  return { result, source, words: program.words.length };
}

describe('random programs on the ISS', () => {
  const cov = newCoverage();

  test(`${PROGRAMS} programs assemble and end within ${RANDOM_PROGRAM_MAX_INSTRUCTIONS} instructions per thread`, () => {
    let maxWords = 0;
    for (let i = 0; i < PROGRAMS; i++) {
      const programSeed = (seed + i) >>> 0;
      // Mostly the defaults; some small, some large; every tenth on the default scene.
      const size = i % 7 === 0 ? 40 : i % 11 === 0 ? 1200 : 250;
      try {
        // Every fourth with txd (and texture memory).
        const { words } = runOne(programSeed, { size, texture: i % 4 === 1 }, cov, i % 10 === 0 ? defaultScene() : undefined);
        maxWords = Math.max(maxWords, words);
      } catch (e) {
        throw new Error(`program seed ${programSeed} (SEED=${seed}, program ${i}): ${(e as Error).message}`);
      }
    }
    console.log(
      `random programs: ${PROGRAMS} x ${PIXELS} pixels, ${cov.retired} instructions, max ${cov.maxRetired} per thread, max ${maxWords} words; ` +
        `${cov.programsWithFaults} programs faulted (${cov.memoryFaults} memory faults, ${cov.faultEnds} fault ends), ${cov.traces} traces (${cov.traceHits} hits); ` +
        `reads of the previous result ${((100 * cov.raw1) / cov.retired).toFixed(1)}%, of the one before ${((100 * cov.raw2) / cov.retired).toFixed(1)}%`,
    );
    expect(cov.maxRetired).toBeLessThanOrEqual(RANDOM_PROGRAM_MAX_INSTRUCTIONS);
  }, 120_000);

  test('every opcode of the table is executed (txd in the programs with texture memory)', () => {
    const missing = INSTRUCTIONS.filter((s) => !cov.opcodes.has(s.opcode)).map((s) => s.mnemonic);
    expect(missing).toEqual([...NOT_GENERATED]);
  });

  test('txd returns every status: ok, an invalid header, an invalid sampler, a chain past the end of memory', () => {
    expect([...cov.textureStatus].sort()).toEqual(expect.arrayContaining([0, 1, 2, 4]));
  });

  test('every conditional branch is taken and not taken, on every flag value', () => {
    const want: string[] = [];
    for (const m of CONDITIONAL) {
      for (let flag = 0; flag < 4; flag++) want.push(`${m}:${FLAG_NAMES[flag]}:${BRANCH_TAKEN[m]!(flag) ? 'taken' : 'not taken'}`);
    }
    want.push('jmp:Z:taken');
    expect(want.filter((w) => !cov.branches.has(w))).toEqual([]);
  });

  test('faults (memory faults and thread-ending ones), traces and hits occur; results use recent values', () => {
    expect(cov.memoryFaults).toBeGreaterThan(0);
    expect(cov.faultEnds).toBeGreaterThan(0);
    expect(cov.programsWithFaults).toBeLessThan(PROGRAMS);
    expect(cov.traces).toBeGreaterThan(0);
    expect(cov.traceHits).toBeGreaterThan(0);
    expect(cov.raw1 / cov.retired).toBeGreaterThan(0.25);
    expect(cov.raw2 / cov.retired).toBeGreaterThan(0.1);
  });
});

describe('generator options', () => {
  const some = (n: number, opts: Partial<RandomProgramOptions>, check: (cov: Coverage, source: string) => void) => {
    for (let i = 0; i < n; i++) {
      const cov = newCoverage();
      const programSeed = (seed + 1000 + i) >>> 0;
      const { source } = runOne(programSeed, opts, cov);
      check(cov, source);
    }
  };

  test('faults off: no thread faults', () => {
    some(60, { faults: false }, (cov) => {
      expect(cov.programsWithFaults).toBe(0);
      expect(cov.memoryFaults).toBe(0);
    });
  });

  test('trace off, loops off, calls off: none in the source', () => {
    some(40, { trace: false, loops: false, calls: false }, (cov, source) => {
      expect(cov.traces).toBe(0);
      expect(source).not.toMatch(/^\s*trace\b|^loop|jmp_link|^fn/m);
    });
  });

  test('size and instruction bound are respected', () => {
    some(20, { size: 2500 }, (cov) => expect(cov.maxRetired).toBeLessThanOrEqual(RANDOM_PROGRAM_MAX_INSTRUCTIONS));
    some(20, { size: 300, maxInstructions: 2000 }, (cov) => expect(cov.maxRetired).toBeLessThanOrEqual(2000));
  });

  test('the same seed gives the same program, constants and scene', () => {
    const a = createRng(seed);
    const b = createRng(seed);
    const pa = generateProgram(a);
    const pb = generateProgram(b);
    expect(pa.source).toBe(pb.source);
    expect(Array.from(pa.constants)).toEqual(Array.from(pb.constants));
    expect(generateScene(a)).toEqual(generateScene(b));
  });

  test('random scenes are well formed', () => {
    const rng = createRng(seed);
    for (let i = 0; i < 200; i++) {
      const s = generateScene(rng);
      expect(triangleCount(s)).toBeGreaterThanOrEqual(2);
      for (let t = 0; t < triangleCount(s); t++) {
        for (let k = 0; k < 3; k++) expect(s.triangles[4 * t + k]!).toBeLessThan(vertexCount(s));
        expect(s.triangles[4 * t + 3]!).toBeGreaterThanOrEqual(1);
      }
    }
  });
});
