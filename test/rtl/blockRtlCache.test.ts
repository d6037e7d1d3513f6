// The rtl output's block cache: a catalogue design's files are made once per version of the package's code.
import { afterEach, expect, test } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cachedBlockFiles } from '../../src/designs/rtl/blockRtlCache.ts';
import { tempDir } from '../tempDir.ts';

const saved = process.env.RTGPU_CACHE;
/** A build cache of the test's own. */
function freshCache(): string {
  const cache = tempDir('block-cache');
  process.env.RTGPU_CACHE = cache;
  return cache;
}
afterEach(() => {
  if (saved === undefined) delete process.env.RTGPU_CACHE;
  else process.env.RTGPU_CACHE = saved;
});

test('made once, then read back the same; another design has its own entry', async () => {
  const cache = freshCache();
  let made = 0;
  const make = (text: string) => () => {
    made++;
    return [
      { path: 'demo/Demo.sv', text },
      { path: 'demo/demo.f', text: 'Demo.sv\n' },
    ];
  };
  const first = await cachedBlockFiles('demo', make('module Demo; endmodule\n'));
  const again = await cachedBlockFiles('demo', make('never made\n'));
  expect(made).toBe(1);
  expect(again).toEqual(first);
  expect(again[0]!.text).toBe('module Demo; endmodule\n');
  await cachedBlockFiles('other', make('module Other; endmodule\n'));
  expect(made).toBe(2);
  expect(readdirSync(join(cache, 'rtl-block')).filter((e) => !e.includes('.'))).toHaveLength(2);
});

test('a failing make leaves no entry behind', async () => {
  freshCache();
  await expect(
    cachedBlockFiles('broken', () => {
      throw new Error('elaboration failed');
    }),
  ).rejects.toThrow('elaboration failed');
  const files = await cachedBlockFiles('broken', () => [{ path: 'broken/x.sv', text: 'x\n' }]);
  expect(files).toEqual([{ path: 'broken/x.sv', text: 'x\n' }]);
});
