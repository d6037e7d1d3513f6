// How much SystemVerilog the default GPU hands off, readable against netlist style (metrics `rtlLines`, `rtlLinesNetlistStyle`).
import { emitSystemVerilog } from '../../hdl/index.ts';
import { cachedGpuDesign } from '../../host/runtime/index.ts';

const lineCount = (files: readonly { path: string; text: string }[]) => files.filter((f) => f.path.endsWith('.sv')).reduce((n, f) => n + f.text.split('\n').length - 1, 0);

export function measureRtlLines(): Record<string, number> {
  const design = cachedGpuDesign();
  const readable = emitSystemVerilog(design).files;
  const netlist = emitSystemVerilog(design, { style: 'netlist' }).files;
  return {
    rtlLines: lineCount(readable),
    rtlLinesNetlistStyle: lineCount(netlist),
    rtlLinesRatio: lineCount(readable) / lineCount(netlist),
  };
}
