// Measured Yosys figures of each board preset (written by `npm run boards -- --write`; scripts/board-utilization.ts).
// Full-GPU synthesis takes minutes per board, too slow for CI: CI checks these stored figures, the soak step re-measures them.
import type { DeviceUse } from '../../hdl/synth/index.ts';

export interface BoardFigures {
  /** The Yosys that measured them and when (UTC date). */
  readonly yosys: string;
  readonly date: string;
  /** Board name → its use of the device (FpgaDevice units) and the Yosys run time. */
  readonly boards: Readonly<Record<string, DeviceUse & { readonly seconds: number }>>;
}

export const boardFigures: BoardFigures = {
  "yosys": "Yosys 0.23 (git sha1 7ce5011c24b)",
  "date": "2026-11-26",
  "boards": {
    "nexys-video": {
      "logic": 96705,
      "ffs": 30074,
      "brams": 171,
      "dsps": 94,
      "seconds": 105
    },
    "genesys2": {
      "logic": 152496,
      "ffs": 47227,
      "brams": 195,
      "dsps": 116,
      "seconds": 141
    },
    "cyclone-v-gt-devkit": {
      "logic": 69277,
      "ffs": 49787,
      "brams": 699,
      "dsps": 94,
      "seconds": 136
    }
  }
};
