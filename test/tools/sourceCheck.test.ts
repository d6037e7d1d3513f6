// The source check of users' files: hardware values in JavaScript conditions and comparisons, TypeScript's errors, no false alarms on the examples, and its cache.
import { describe, expect, test } from 'vitest';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkSources } from '../../src/hdl/tools/index.ts';
import { markerLine } from '../hdl/markers.ts';

const fixtures = resolve('test/cli/fixtures/typeErrors');

/** A private cache, so that the first check is a real one. */
function withCache<T>(run: () => T): T {
  const dir = resolve('.cache', `source-check-test-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const before = process.env.RTGPU_CACHE;
  process.env.RTGPU_CACHE = dir;
  try {
    return run();
  } finally {
    if (before === undefined) delete process.env.RTGPU_CACHE;
    else process.env.RTGPU_CACHE = before;
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('checkSources', () => {
  test('every construct on a hardware value, in the file and in a local file it imports; fair JavaScript passes', () => {
    const file = join(fixtures, 'everyConstruct.ts');
    const problems = withCache(() => checkSources([file])).filter((p) => p.code === 'JavaScriptOperator');
    const at = (f: string, mark: string) => problems.filter((p) => p.file === f && p.line === markerLine(f, mark)).map((p) => p.message);
    expect(at(file, 'and')).toEqual([expect.stringMatching(/JavaScript condition \(&&\).*use a\.and\(b\)/)]);
    expect(at(file, 'or')).toEqual([expect.stringMatching(/\(\|\|\).*use a\.or\(b\)/)]);
    expect(at(file, 'while')).toEqual([expect.stringMatching(/\(loop\).*runs while elaborating/)]);
    expect(at(file, 'for')).toEqual([expect.stringMatching(/\(loop\)/)]);
    expect(at(file, 'eqeq')).toEqual([expect.stringMatching(/== compares two hardware values as JavaScript objects.*use \.eq\(\)/)]);
    expect(at(file, 'lt')).toEqual([expect.stringMatching(/< on a hardware value .*use \.lt\(\)/)]);
    expect(at(file, 'ne')).toEqual([expect.stringMatching(/!== on a hardware value .*use \.ne\(\)/)]);
    expect(at(file, 'index')).toEqual([expect.stringMatching(/\(if\)/)]);
    const helper = join(fixtures, 'helper.ts');
    expect(at(helper, 'helper')).toEqual([expect.stringMatching(/\(\?:\).*mux/)]);
    // Nothing else: `if (maybe)` tests a value that may be undefined.
    expect(problems).toHaveLength(9);
  }, 60_000);

  test('no false alarms on the examples (designs and testbenches)', () => {
    const files = ['blackbox/blackbox.ts', 'blackbox/blackbox.tb.ts', 'fifo/fifo.ts', 'fifo/fifo.tb.ts', 'gcd/gcd.ts', 'gcd/gcd.tb.ts', 'uart/uart.ts', 'uart/uart.tb.ts'].map((f) => resolve('examples', f));
    expect(withCache(() => checkSources(files))).toEqual([]);
  }, 60_000);

  test('cached by content: the same answer from the cache; an edit of an imported file is seen', () => {
    const dir = resolve('.cache', `source-check-edit-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
      cpSync(join(fixtures, 'helper.ts'), join(dir, 'helper.ts'));
      writeFileSync(join(dir, 'top.ts'), "import { helperTwice } from './helper.ts';\nexport const h = helperTwice;\n");
      withCache(() => {
        const first = checkSources([join(dir, 'top.ts')]);
        expect(first.map((p) => `${p.line}:${p.code}`)).toEqual([`${markerLine(join(dir, 'helper.ts'), 'helper')}:JavaScriptOperator`]);
        expect(checkSources([join(dir, 'top.ts')])).toEqual(first);
        writeFileSync(join(dir, 'helper.ts'), readFileSync(join(dir, 'helper.ts'), 'utf8').replace('b ? b : b', 'b.not()'));
        expect(checkSources([join(dir, 'top.ts')])).toEqual([]);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
