// FPGA synthesis with Yosys: targets, resource and timing reports, and the project files of the FPGA handoff.
export { synthesize, type SynthOptions } from './synthesize.ts';
export { synthTargets, synthTargetNames, isSynthTarget, type SynthTarget, type SynthTargetInfo } from './targets.ts';
export type { SynthReport, ModuleReport, MemoryReport, Resources, LogicDepth } from './report.ts';
export { formatReport, formatTable, formatDepth, formatModules, formatMemories, formatClocks, groupNumberedMemories, memoryName, bramUnit, type TableStyle } from './formatReport.ts';
export { designClocks, type DesignClock, type ClockReset } from '../emit/designClocks.ts';
export { timingConstraints, timingConstraintsFile, MISSING_PERIOD } from '../emit/timingConstraints.ts';
export { manifestTiming, type ManifestTiming, type ManifestClock } from '../emit/manifest.ts';
export { YosysError, YosysUnavailableError, type YosysProgress } from '../tools/yosys.ts';
export type { RtlSource } from './rtlSource.ts';
export { BUILD_DIR, type FpgaProject } from './fpgaProject.ts';
export { quartusProject, type QuartusDevice, type QuartusFiles } from './quartusProject.ts';
export { vivadoProject, type VivadoFiles } from './vivadoProject.ts';
export { yosysHandoffScript, yosysReportPath, type YosysSource } from './yosysHandoff.ts';
export { placeAndRouteIce40, type Ice40Device, type Ice40PnrOptions, type Ice40PnrResult } from './ice40Pnr.ts';
export { subDesign } from '../ir/netlist.ts';
export { checkEmitterEquivalence, checkSvEquivalence, type EquivalenceOptions, type EquivalenceResult, type SvFiles } from './equivalence.ts';
export { fpgaDevices, bramsFor, type FpgaDevice, type FpgaDeviceName, type BramShape } from './devices.ts';
export { cellTotals, deviceResources, deviceUse, logicUse, memoryBrams, utilization, type DeviceUse } from './utilization.ts';
