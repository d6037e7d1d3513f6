// Measured Yosys figures of each board preset (written by `npm run boards -- --write`; scripts/board-utilization.ts).
// Full-GPU synthesis takes minutes per board, too slow for CI: CI checks these stored figures, the soak step re-measures them.
import type { DeviceUse } from '../hdl/synth/index.ts';

export interface BoardFigures {
  /** The Yosys that measured them and when (UTC date). */
  readonly yosys: string;
  readonly date: string;
  /** Board name → its use of the device (FpgaDevice units) and the Yosys run time. */
  readonly boards: Readonly<Record<string, DeviceUse & { readonly seconds: number }>>;
}

export const boardFigures: BoardFigures = {
  yosys: '',
  date: '',
  boards: {},
};
