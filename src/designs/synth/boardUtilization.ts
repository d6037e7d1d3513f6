// A board preset's utilization: Yosys synthesis of its GPU for the device's target, against the device's capacity.
import { deviceResources, deviceUse, synthesize, utilization, type DeviceUse, type YosysProgress } from '../../hdl/synth/index.ts';
import { cachedGpuDesign } from '../../host/runtime/index.ts';
import { BOARD_UTILIZATION_LIMIT, boardDevice, type BoardPreset } from './boards.ts';
import type { BoardFigures } from './boardFigures.ts';
import { rtlSource } from './synthSource.ts';

export interface BoardMeasurement {
  readonly board: string;
  readonly use: DeviceUse;
  readonly seconds: number;
  /** Which Yosys ran. */
  readonly yosys: string;
}

/** Synthesizes the board's GPU with Yosys (minutes for the whole GPU) and counts its use of the device. */
export async function measureBoard(b: BoardPreset, onProgress?: (p: YosysProgress) => void): Promise<BoardMeasurement> {
  const device = boardDevice(b);
  const report = await synthesize(rtlSource(cachedGpuDesign(b.gpu)), device.target, { depth: 'none', onProgress });
  return { board: b.name, use: deviceUse(report, device), seconds: Math.round(report.elapsedMs / 1000), yosys: report.yosys.replace(/,.*$/, '') };
}

/** The resources of a board above the limit, as text (`logic 91.2 %`); none: it fits. */
export function overLimit(b: BoardPreset, use: DeviceUse): string[] {
  const u = utilization(use, boardDevice(b));
  return deviceResources.filter((r) => u[r] > BOARD_UTILIZATION_LIMIT).map((r) => `${r} ${percent(u[r])}`);
}

export const percent = (f: number): string => `${(100 * f).toFixed(1)} %`;

const configText = (b: BoardPreset): string => {
  const g = b.gpu;
  const kib = ((g.mainMemoryWords ?? 16384) * 4) / 1024;
  return `${g.rtCores} RT, ${g.icCores} IC${g.traversal === 'bvh' ? ' (BVH)' : ''}, ${g.triangles} triangles, ${kib} KiB/thread`;
};

/**
 * The Markdown table of the boards: device, configuration, and per resource `used / capacity (percent)`
 * from the stored figures (a board without figures shows dashes).
 */
export function boardTable(boards: readonly BoardPreset[], figures: BoardFigures): string {
  const rows = boards.map((b) => {
    const d = boardDevice(b);
    const f = figures.boards[b.name];
    const u = f && utilization(f, d);
    const cell = (r: keyof DeviceUse) => (f && u ? `${f[r].toLocaleString('en-US')} / ${d[r].toLocaleString('en-US')} (${percent(u[r])})` : '–');
    return `| \`${b.name}\` | ${b.title} | \`${d.part}\` | ${configText(b)} | ${b.clockMhz} MHz | ${cell('logic')} ${d.logicUnit} | ${cell('ffs')} | ${cell('brams')} ${d.bramUnit} | ${cell('dsps')} |`;
  });
  return ['| board | | device | GPU | clock | logic | FFs | block RAM | DSPs |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** Where the table's figures come from, in one sentence. */
export function figuresSource(figures: BoardFigures): string {
  return figures.date ? `Measured with ${figures.yosys} on ${figures.date} (\`npm run boards\`)` : 'Not measured yet (`npm run boards -- --write`)';
}
