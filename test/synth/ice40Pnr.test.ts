// iCE40 place and route with nextpnr-ice40: library blocks and the float adder fit an HX8K, route, and report a positive Fmax.
import { describe, expect, test } from 'vitest';
import { designByName, rtlSource } from '../../src/designs/synth/synthSource.ts';
import { manifestModules } from '../../src/hdl/emit/manifest.ts';
import { placeAndRouteIce40, registeredWrapper, worstFmax } from '../../src/hdl/synth/ice40Pnr.ts';

async function placeAndRoute(name: string, registerPorts: boolean) {
  const design = await designByName(name);
  const ports = manifestModules(design, '.').find((m) => m.name === design.top)!.ports;
  const r = await placeAndRouteIce40(rtlSource(design), { ports: registerPorts ? ports : undefined });
  const lc = r.utilization.ICESTORM_LC!;
  console.log(`${name}: ${worstFmax(r)?.toFixed(1)} MHz on ${r.device}-${r.package}, ${lc.used}/${lc.available} LCs (synth ${r.synthSeconds.toFixed(1)} s, pnr ${r.pnrSeconds.toFixed(1)} s)`);
  return r;
}

describe('nextpnr-ice40 places and routes blocks that fit an HX8K', () => {
  for (const [name, registerPorts] of [['fifo', false], ['counter', false], ['fadd', true]] as const) {
    test(`${name}${registerPorts ? ' (ports registered)' : ''}`, async () => {
      const r = await placeAndRoute(name, registerPorts);
      expect(r.registeredPorts).toBe(registerPorts);
      expect(Object.keys(r.fmaxMhz)).toHaveLength(1);
      expect(worstFmax(r)).toBeGreaterThan(0);
      expect(r.utilization.ICESTORM_LC!.used).toBeGreaterThan(0);
      if (name === 'fifo') expect(r.utilization.ICESTORM_RAM!.used).toBe(1);
    }, 300_000);
  }

  test('a block that does not fit is an error naming it', async () => {
    // The triangle memory is small, but has 370 port bits: more than the HX8K has pins.
    await expect(placeAndRoute('triangle_memory', false)).rejects.toThrow(/nextpnr-ice40 \(hx8k\) could not place and route TriangleMemory\w*:\n.*ERROR/);
  }, 300_000);
});

test('the wrapper registers every port except the clock', () => {
  const w = registeredWrapper('Blk', [
    { name: 'clk', direction: 'input', width: 1 },
    { name: 'a', direction: 'input', width: 8 },
    { name: 'y', direction: 'output', width: 1 },
  ]);
  expect(w.name).toBe('Blk_ice40_regs');
  expect(w.text).toContain('    a_r <= a;\n    y <= y_r;');
  expect(w.text).toContain('  Blk dut (.clk(clk), .a(a_r), .y(y_r));');
});
