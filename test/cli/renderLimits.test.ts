// `rtgpu render` at its limits: the default cycle limit grows with the frame, the bar shows an ETA (also on
// the ISS), a run stopped at --max-cycles writes a partial image, faulted pixels give exit status 3.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { join } from 'node:path';
import { tempDir } from '../tempDir.ts';
import { buildFrame, type FrameSpec } from '../../src/host/frame.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { DEFAULT_MAX_CYCLES, MAX_CYCLES_PER_PIXEL, gpuFlags } from '../../src/cli/gpuFlags.ts';
import { ProgressBar } from '../../src/cli/progress.ts';
import { renderCommand } from '../../src/cli/commands/render.ts';
import { runGpu } from '../../src/host/runtime/index.ts';
import { runCliCases } from './inProcessCli.ts';

// Faults the wrapped runGpu adds to its result (render's fault exit cannot be provoked with the built-in kernels).
const inject = vi.hoisted(() => ({ faults: [] as number[] }));
vi.mock('../../src/host/runtime/index.ts', async (importOriginal) => {
  const runtime = await importOriginal<typeof import('../../src/host/runtime/index.ts')>();
  return { ...runtime, runGpu: async (...args: Parameters<typeof runtime.runGpu>) => ({ ...(await runtime.runGpu(...args)), faults: inject.faults }) };
});
afterEach(() => {
  inject.faults = [];
  vi.restoreAllMocks();
});

const rtgpu = (...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', ...args], { reject: false });
const MAGENTA = [255, 0, 255];

/** The RGB bytes of a PNG as encodePng writes it (one IDAT, filter 0 rows). */
function pngPixels(file: string): { width: number; rgb: Uint8Array } {
  const png = readFileSync(file);
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const raw = inflateSync(png.subarray(41, 41 + png.readUInt32BE(33)));
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) rgb.set(raw.subarray(y * (1 + 3 * width) + 1, (y + 1) * (1 + 3 * width)), y * 3 * width);
  return { width, rgb };
}
const pixel = (rgb: Uint8Array, i: number) => [...rgb.subarray(3 * i, 3 * i + 3)];

describe('the default --max-cycles', () => {
  test('grows with the pixels (a per-pixel budget, the old default as the floor); a given limit wins; the help says so', async () => {
    expect(gpuFlags({}, 64 * 48).maxCycles).toBe(DEFAULT_MAX_CYCLES);
    expect(gpuFlags({}, 4096 * 4096).maxCycles).toBe(MAX_CYCLES_PER_PIXEL * 4096 * 4096);
    expect(MAX_CYCLES_PER_PIXEL * 4096 * 4096).toBeGreaterThan(DEFAULT_MAX_CYCLES);
    // At least 4x the 759 cycles a pixel measured (the bunny on one RT and one IC core).
    expect(MAX_CYCLES_PER_PIXEL).toBeGreaterThanOrEqual(4 * 759);
    expect(gpuFlags({ 'max-cycles': '1000' }, 4096 * 4096).maxCycles).toBe(1000);
    const help = await rtgpu('render', '--help');
    expect(help.stdout).toMatch(/--max-cycles N +clock cycles .*\(default 4096 per\s+pixel, at least 50000000\)/);
  }, 60_000);
});

describe('progress', () => {
  test('the bar shows the ETA from the pixel rate since its first update', () => {
    const writes: string[] = [];
    let now = 0;
    const bar = new ProgressBar('render', { isTTY: true, write: (s) => writes.push(s) }, () => now);
    bar.update(0, 40, 0);
    expect(writes[0]).not.toMatch(/ETA/);
    now = 1000;
    bar.update(10, 40, 5000);
    // 10 pixels a second, 30 to go.
    expect(writes[1]).toMatch(/ 10\/40 pixels, 5\.00k cycles, ETA 3s$/);
    now = 200_000;
    bar.update(20, 40, 9000);
    expect(writes[2]).toMatch(/, ETA 3m20s$/);
  });

  test('the ISA simulator reports progress pixel by pixel', async () => {
    const spec: FrameSpec = { kernel: 'shade', camera: defaultCamera, width: 8, height: 6, scene: defaultScene() };
    const calls: [number, number, number][] = [];
    const r = await runGpu(buildFrame(spec), { sim: 'iss', onProgress: (done, total, cycles) => calls.push([done, total, cycles]) });
    expect(calls.map((c) => c[0])).toEqual(Array.from({ length: 48 }, (_, i) => i + 1));
    expect(calls.at(-1)).toEqual([48, 48, r.stats.instructions]);
  });
});

describe('a run stopped part way writes a partial image', () => {
  /** The pixels of a partial image: each either the full frame's or magenta; how many finished. */
  const finishedOf = (partPng: string, fullPng: string): number => {
    const part = pngPixels(partPng).rgb;
    const whole = pngPixels(fullPng).rgb;
    let finished = 0;
    for (let i = 0; i < 128; i++) {
      if (pixel(part, i).join() === MAGENTA.join()) continue;
      expect(pixel(part, i), `pixel ${i}`).toEqual(pixel(whole, i));
      finished++;
    }
    return finished;
  };

  // Threads stream (a thread takes its next pixel once written back), so the pixels finished when the
  // limit strikes need not be the first ones.
  test('TS simulator, one GPU: the finished pixels, the rest magenta, the stuck threads, exit 1', async () => {
    const dir = tempDir('render-partial');
    const [stopped, full] = await Promise.all([
      rtgpu('render', '--width', '16', '--height', '8', '--jobs', '1', '--max-cycles', '5000', '--out', join(dir, 'part.png')),
      rtgpu('render', '--width', '16', '--height', '8', '--sim', 'iss', '--out', join(dir, 'full.png')),
    ]);
    expect(full.exitCode).toBe(0);
    expect(stopped.exitCode).toBe(1);
    const m = /^rtgpu: stopped after 5000 cycles \(--max-cycles 5000\): wrote partial image .*part\.png \((\d+) of 128 pixels; unfinished pixels are magenta\)\nthe frame did not finish within 5000 cycles \(--max-cycles\); patch \d \(pixels \d+\.\.\d+\) is stuck:\n {2}running: thread/.exec(stopped.stderr);
    expect(m, stopped.stderr).not.toBeNull();
    expect(stopped.stderr).not.toMatch(/\n\s+at /);
    const finished = finishedOf(join(dir, 'part.png'), join(dir, 'full.png'));
    expect(finished).toBe(Number(m![1]));
    expect(finished).toBeGreaterThan(0);
    expect(finished).toBeLessThan(128);
  }, 120_000);

  test('render workers: a stopped worker still gives an image and the stuck report', async () => {
    const dir = tempDir('render-partial');
    const [r, full] = await Promise.all([
      rtgpu('render', '--width', '16', '--height', '8', '--jobs', '2', '--max-cycles', '1500', '--out', join(dir, 'part.png')),
      rtgpu('render', '--width', '16', '--height', '8', '--sim', 'iss', '--out', join(dir, 'full.png')),
    ]);
    expect(r.exitCode).toBe(1);
    const m = /^rtgpu: stopped after 1500 cycles \(--max-cycles 1500\): wrote partial image .*part\.png \((\d+) of 128 pixels; unfinished pixels are magenta\)\nthe frame did not finish within 1500 cycles/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    const finished = finishedOf(join(dir, 'part.png'), join(dir, 'full.png'));
    expect(finished).toBe(Number(m![1]));
    expect(finished).toBeLessThan(128);
  }, 120_000);

  test('ISA simulator: the pixels before the thread that hit the limit', async () => {
    const dir = tempDir('render-partial');
    const r = await rtgpu('render', '--width', '16', '--height', '8', '--sim', 'iss', '--max-cycles', '150', '--out', join(dir, 'part.png'));
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^rtgpu: pixel 4: no fin after 150 instructions .*\nwrote partial image .*part\.png \(4 of 128 pixels; unfinished pixels are magenta\)$/);
    const { rgb } = pngPixels(join(dir, 'part.png'));
    expect(pixel(rgb, 3)).not.toEqual(MAGENTA);
    expect(pixel(rgb, 4)).toEqual(MAGENTA);
  }, 60_000);
});

describe('faulted pixels', () => {
  test('render writes the PNG and the statistics, says which pixels faulted and exits with status 3', async () => {
    const dir = tempDir('render-faults');
    const out = join(dir, 'f.png');
    inject.faults = [3, 5];
    const stderr: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (stderr.push(String(s)), true));
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const code = await renderCommand.run(['--sim', 'iss', '--width', '8', '--height', '6', '--out', out]);
    expect(code).toBe(3);
    expect(existsSync(out)).toBe(true);
    expect(stdout.mock.calls.map((c) => String(c[0])).join('')).toMatch(/^faults: 2 pixels \(3 5\)$/m);
    expect(stderr.join('')).toBe(`rtgpu: 2 pixels faulted (pixels 3 5); wrote ${out}; exit status 3\n`);
  });
});

describe('negative numbers get the range error', () => {
  test('render, run and bench: every integer flag', async () => {
    const cases: [string[], string][] = [
      [['render', '--width', '-3'], 'rtgpu: --width must be between 1 and 4096, got -3'],
      [['render', '--height', '-1'], 'rtgpu: --height must be between 1 and 4096, got -1'],
      [['render', '--jobs', '-2'], 'rtgpu: --jobs must be between 1 and 64, got -2'],
      [['render', '--rt-cores', '-1'], 'rtgpu: --rt-cores must be between 1 and 4, got -1'],
      [['render', '--max-cycles', '-5'], `rtgpu: --max-cycles must be between 1 and ${Number.MAX_SAFE_INTEGER}, got -5`],
      [['run', 'src/host/kernels/id.s', '--pixels', '-1'], 'rtgpu: --pixels must be between 1 and 16777216, got -1'],
      [['run', 'src/host/kernels/id.s', '--max-instructions', '-7'], `rtgpu: --max-instructions must be between 1 and ${Number.MAX_SAFE_INTEGER}, got -7`],
      [['run', 'src/host/kernels/id.s', '--ic-cores', '-4'], 'rtgpu: --ic-cores must be between 1 and 32, got -4'],
      [['bench', '--cycles', '-5'], 'rtgpu: --cycles must be between 1000 and 100000000, got -5'],
    ];
    // One case per command through bin/rtgpu.mjs, the rest in-process (test/cli/inProcessCli.ts).
    const runs = await runCliCases(cases.map(([args]) => args), { spawn: rtgpu, spawnAt: [0, 5, 8] });
    runs.forEach((r, i) => {
      expect(r.stderr, cases[i]![0].join(' ')).toBe(cases[i]![1]);
      expect(r.exitCode).toBe(2);
    });
  }, 120_000);
});
