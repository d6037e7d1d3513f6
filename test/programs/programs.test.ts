// The hand-written programs on the ISS give the return vectors (and faults) worked out by hand in their headers.
import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { PROGRAMS, PROGRAMS_DIR, PROGRAM_FILES } from './index.ts';
import { assemble } from '../../src/isa/assembler.ts';
import { runIss } from '../../src/iss/index.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import type { Scene } from '../../src/golden/scene.ts';

const EMPTY: Scene = { vertices: new Uint32Array(0), triangles: new Uint32Array(0) };
const hex = (ws: readonly number[]): string => ws.map((w) => (w >>> 0).toString(16).padStart(8, '0')).join(' ');

describe('hand-written programs', () => {
  test('the index lists every .s file', () => {
    const files = readdirSync(PROGRAMS_DIR).filter((f) => f.endsWith('.s')).sort();
    expect(files).toEqual([...PROGRAM_FILES].sort());
  });

  for (const p of PROGRAMS) {
    test(`${p.file}: ${p.pixels} pixel${p.pixels === 1 ? '' : 's'}`, () => {
      const program = assemble(p.source, p.path);
      const result = runIss({ program: program.words, constants: p.constants, scene: p.scene === 'default' ? defaultScene() : EMPTY, maxInstructions: 10_000 }, p.pixels);
      for (const e of p.expected) {
        expect(`pixel ${e.pixel}: ${hex(result.pixels[e.pixel]!.ret)}`).toBe(`pixel ${e.pixel}: ${hex(e.ret)}`);
      }
      expect(result.faults).toEqual(p.faults);
    });
  }
});
