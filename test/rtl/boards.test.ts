// The board presets: each elaborates, fits its device (block RAM from the netlist, the stored Yosys figures), renders
// like the ISA simulator, and `rtgpu rtl --board` writes its handoff. The Yosys measurement itself is the soak's `boards` step.
import { describe, expect, test } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BOARD_UTILIZATION_LIMIT, boardDevice, boardPreset, boardPresets } from '../../src/designs/synth/boards.ts';
import { boardFigures } from '../../src/designs/synth/boardFigures.ts';
import { boardTopName } from '../../src/designs/rtl/boardHandoff.ts';
import { overLimit } from '../../src/designs/synth/boardUtilization.ts';
import { gpuDesign } from '../../src/gpu/top/gpuDesign.ts';
import { defaultGpuParams, type GpuParams } from '../../src/gpu/top/gpuTop.ts';
import { configText } from '../../src/designs/rtl/gpuHandoff.ts';
import { bramsFor, fpgaDevices, logicUse, memoryBrams, utilization } from '../../src/hdl/synth/index.ts';
import { generatedMarker } from '../../src/designs/rtl/generatedDir.ts';
import { rtlCommand, parseRtlArgs } from '../../src/cli/commands/rtl.ts';
import { CliError } from '../../src/cli/cliError.ts';
import { buildFrame } from '../../src/host/frame.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { runGpu } from '../../src/host/runtime/index.ts';
import { toolVersion } from '../../src/hdl/tools/toolchain.ts';
import { execa } from 'execa';
import { tempDir } from '../tempDir.ts';

describe('device figures', () => {
  test('a memory takes the block RAM shape that wastes least, one copy per read port', () => {
    const a7 = fpgaDevices.xc7a200t;
    expect(bramsFor(a7, 1024, 32)).toBe(1); // 1K x 36
    expect(bramsFor(a7, 4096, 32)).toBe(4);
    expect(bramsFor(a7, 512, 128)).toBe(2); // 512 x 72
    expect(bramsFor(a7, 1024, 32, 2)).toBe(2);
    const cv = fpgaDevices['5cgtfd9'];
    expect(bramsFor(cv, 1024, 32)).toBe(4); // 1K x 10
    expect(bramsFor(cv, 256, 40)).toBe(1);
  });

  test('Cyclone V logic: 5- and 6-input ALUTs a whole ALM, smaller ones and adder bits half', () => {
    const cells = { MISTRAL_ALUT6: 10, MISTRAL_ALUT5: 4, MISTRAL_ALUT4: 6, MISTRAL_ALUT_ARITH: 8, MISTRAL_FF: 100 };
    expect(logicUse(fpgaDevices['5cgtfd9'], cells)).toBe(10 + 4 + 7);
    expect(logicUse(fpgaDevices.xc7a200t, { LUT6: 5, LUT2: 3, RAM32M: 2, FDRE: 9 })).toBe(5 + 3 + 8);
  });
});

describe('the default GPU is unchanged by the main-memory parameter', () => {
  test('64 KiB a thread unless asked; a size not a power of two is refused', () => {
    const names = gpuDesign(defaultGpuParams).modules.map((m) => m.name);
    expect(names).toContain('UnifiedMainMemory_ports4_threadWords16384_threads32');
    expect(() => gpuDesign({ ...defaultGpuParams, mainMemoryWords: 1000 })).toThrow(/mainMemoryWords must be a power of two from 8 to 16384, got 1000/);
  }, 60_000);
});

describe.each(boardPresets.map((b) => [b.name, b] as const))('board %s', (name, b) => {
  const device = boardDevice(b);
  test('its memories fit the block RAM with the margin, counted from the netlist', () => {
    const design = gpuDesign(b.gpu);
    const brams = memoryBrams(design, device);
    expect(brams).toBeGreaterThan(100);
    expect(brams).toBeLessThanOrEqual(BOARD_UTILIZATION_LIMIT * device.brams);
    // The netlist bound is an upper bound of what Yosys counted (it maps small memories to LUT-RAM).
    const measured = boardFigures.boards[name];
    if (measured) expect(measured.brams).toBeLessThanOrEqual(brams);
  }, 60_000);

  test(`the stored Yosys figures are within ${100 * BOARD_UTILIZATION_LIMIT} % of the device in every resource`, () => {
    const f = boardFigures.boards[name];
    expect(f, `no stored figures for ${name}: npm run boards -- --only ${name} --write`).toBeDefined();
    expect(overLimit(b, f!)).toEqual([]);
    const u = utilization(f!, device);
    for (const r of ['logic', 'ffs', 'brams', 'dsps'] as const) expect(u[r]).toBeGreaterThan(0);
  });
});

describe('rtgpu rtl --board', () => {
  test('writes the board handoff: wrapper, file list, Yosys script, vendor project, clock constraint, README', async () => {
    const dir = join(tempDir('boards'), 'nv');
    expect(await rtlCommand.run(['--board', 'nexys-video', '--out', dir])).toBe(0);
    const top = boardTopName(boardPreset('nexys-video'));
    const list = readFileSync(join(dir, 'rtgpu.f'), 'utf8').trim().split('\n');
    expect(list.at(-1)).toBe(`${top}.sv`);
    expect(list.at(-2)).toBe('rtgpu_top/rtgpu_top.sv');
    expect(list).toContain('rtgpu_top/UnifiedMainMemory_ports2_threadWords4096_threads32.sv');
    for (const f of list) expect(existsSync(join(dir, f)), f).toBe(true);
    const wrapper = readFileSync(join(dir, `${top}.sv`), 'utf8');
    expect(wrapper).toMatch(new RegExp(`module ${top} \\(`));
    expect(wrapper).toContain('rtgpu_top gpu (');
    expect(wrapper).toContain('.dma_wr_data(dma_wr_data)');
    expect(readFileSync(join(dir, 'synth/vivado/rtgpu.xdc'), 'utf8')).toContain('create_clock -period 10.000 -name clk [get_ports clk]');
    expect(readFileSync(join(dir, 'synth/vivado/build.tcl'), 'utf8')).toContain('set part xc7a200tsbg484-1');
    expect(readFileSync(join(dir, 'synth/yosys_xilinx.ys'), 'utf8')).toContain(`synth_xilinx -family xc7 -top ${top} -noiopad -noclkbuf`);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { configuration: { mainMemoryWords: number; rtCores: number }; board: { part: string }; clock: { mhz: number } };
    expect(manifest.configuration).toMatchObject({ rtCores: 2, mainMemoryWords: 4096 });
    expect(manifest.board.part).toBe('xc7a200tsbg484-1');
    expect(manifest.clock.mhz).toBe(100);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain('| `nexys-video` |');
    expect(existsSync(join(dir, generatedMarker))).toBe(true);
    // Up to date, then regenerated in place (it is ours).
    expect(await rtlCommand.run(['--board', 'nexys-video', '--out', dir, '--check'])).toBe(0);
    expect(await rtlCommand.run(['--board', 'nexys-video', '--out', dir])).toBe(0);
    // The wrapper and rtgpu_top lint clean together, from the file list.
    await toolVersion('verilator');
    const v = await execa('verilator', ['--lint-only', '-Wall', '--top-module', top, '-f', 'rtgpu.f'], { cwd: dir, reject: false, all: true });
    expect(v.all, 'verilator').toBe('');
    expect(v.exitCode).toBe(0);
  }, 300_000);

  test('the Intel board gets a Quartus project with its device and an SDC clock', async () => {
    const dir = join(tempDir('boards'), 'cv');
    expect(await rtlCommand.run(['--board', 'cyclone-v-gt-devkit', '--out', dir])).toBe(0);
    expect(readFileSync(join(dir, 'synth/quartus/rtgpu.qsf'), 'utf8')).toContain('set_global_assignment -name DEVICE 5CGTFD9E5F35C7');
    expect(readFileSync(join(dir, 'synth/quartus/rtgpu.qsf'), 'utf8')).toContain('TOP_LEVEL_ENTITY rtgpu_cyclone_v_gt_devkit');
    expect(readFileSync(join(dir, 'synth/quartus/rtgpu.sdc'), 'utf8')).toContain('create_clock -name clk -period 10.000 [get_ports {clk}]');
  }, 120_000);

  test('refuses a non-empty directory it did not generate', async () => {
    const dir = join(tempDir('boards'), 'mine');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    await expect(rtlCommand.run(['--board', 'genesys2', '--out', dir])).rejects.toThrow(/is not empty and was not generated by rtgpu/);
    expect(existsSync(join(dir, 'rtgpu.f'))).toBe(false);
  });

  test('an unknown board lists the known ones; GPU flags do not combine with --board', () => {
    expect(() => parseRtlArgs(['--board', 'de0-nano'])).toThrow(CliError);
    expect(() => parseRtlArgs(['--board', 'de0-nano'])).toThrow(`--board: unknown board 'de0-nano' (boards: ${boardPresets.map((b) => b.name).join(', ')})`);
    expect(() => parseRtlArgs(['--board', 'genesys2', '--rt-cores', '1'])).toThrow('--board sets the GPU configuration: leave out --rt-cores');
    expect(parseRtlArgs(['--board', 'genesys2'])).toMatchObject({ dir: 'rtl-genesys2', gpu: boardPreset('genesys2').gpu });
    expect(() => parseRtlArgs(['--board', 'genesys2', '--texture-unit'])).toThrow('--board sets the GPU configuration: leave out --texture-unit');
  });

  test('--texture-unit: the handoff of rtgpu_top with a texture unit, named in its configuration', () => {
    const plan = parseRtlArgs(['--texture-unit', '--rt-cores', '2']) as { gpu: GpuParams };
    expect(plan.gpu).toEqual({ ...defaultGpuParams, rtCores: 2, texture: true });
    expect(configText(plan.gpu)).toBe('rtCores=2 icCores=2 triangles=512 vertices=2048 texture=default');
    expect(configText(defaultGpuParams)).toBe('rtCores=4 icCores=2 triangles=512 vertices=2048');
  });

  test('--help documents it', () => {
    expect(rtlCommand.usage).toContain('--board NAME');
    for (const b of boardPresets) expect(rtlCommand.usage).toContain(b.name);
  });
});

test('a board configuration (16 KiB of main memory a thread) renders a frame as the ISA simulator does', async () => {
  const job = buildFrame({ kernel: 'shade', camera: defaultCamera, width: 6, height: 4, scene: defaultScene() });
  const b = boardPreset('nexys-video');
  const gpu = await runGpu(job, { sim: 'ts', gpu: b.gpu });
  const iss = await runGpu(job, { sim: 'iss' });
  expect(gpu.pixels.map((p) => [...p.ret])).toEqual(iss.pixels.map((p) => [...p.ret]));
  expect(gpu.faults).toEqual(iss.faults);
}, 300_000);
