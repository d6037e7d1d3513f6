// The C++ wrapper and Verilator configuration of a live Verilator model (testbench/verilator_model.cpp).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ExternalDesign } from '../external/externalDesign.ts';

const template = fileURLToPath(new URL('../../../../testbench/verilator_model.cpp', import.meta.url));

/** Verilator's C++ spelling of an SV identifier: the second of two underscores becomes `__05F`. */
export function verilatorCppName(id: string): string {
  let out = '';
  for (let i = 0; i < id.length; i++) out += id[i] === '_' && id[i - 1] === '_' ? '__05F' : id[i];
  return out;
}

const cString = (s: string) => JSON.stringify(s);

/** Verilator's scope name of an instance path below the top (`TOP.<top>.<inst>…`). */
function scopeOf(top: string, instances: readonly string[]): string {
  return ['TOP', top, ...instances].join('.');
}

export function modelSource(x: ExternalDesign, trace: boolean): string {
  const top = x.design.top;
  const signalSpecs = x.signals.map((s) =>
    s.isPort ? `  {nullptr, ${cString(s.sv.path[0]!)}, ${s.net.width}},` : `  {${cString(scopeOf(top, s.sv.path.slice(0, -1)))}, ${cString(s.sv.path.at(-1)!)}, ${s.net.width}},`,
  );
  const memorySpecs = x.memories.map((m) => `  {${cString(scopeOf(top, m.sv.path.slice(0, -1)))}, ${cString(m.sv.path.at(-1)!)}, ${m.memory.width}, ${m.memory.depth}},`);
  const portLookup = x.signals.filter((s) => s.isPort).map((s) => `  if (!std::strcmp(name, ${cString(s.sv.path[0]!)})) return &top->${verilatorCppName(s.sv.path[0]!)};`);
  // C++ does not allow empty arrays: a placeholder row that the counts exclude.
  const rows = (r: string[], empty: string) => (r.length ? r.join('\n') : empty);
  const closeTrace = 'if (m->vcd) { m->vcd->close(); delete m->vcd; m->vcd = nullptr; }';
  // A design without state has no clock: an "edge" only settles it (and counts the cycle). `step` runs
  // the first clock (the only one where the TS side steps in C).
  const clock = (name: string) => verilatorCppName(name);
  const first = x.clocks[0];
  const firstFalls = first !== undefined && x.edges.some((e) => e.clock === first && e.edge === 'falling');
  const parts: Record<string, string> = {
    TOP: top,
    CLOCK_HIGH: first !== undefined ? `top->${clock(first)} = 1;` : '',
    CLOCK_LOW: first !== undefined ? `top->${clock(first)} = 0;` : '',
    // Registers on the falling edge sample it now; else it waits for the next settle (one evaluation fewer per cycle).
    FALL_EVAL: firstFalls ? 'top->eval();\n    dirty = false;' : 'dirty = true;',
    SET_CLOCKS: x.clocks.map((c, i) => `    if (mask & ${(2 ** i) >>> 0}u) top->${clock(c)} = (levels >> ${i}) & 1u;`).join('\n'),
    POWER_ON_CLOCK: x.clocks.map((c) => `m->top->${clock(c)} = 0;`).join('\n  '),
    // Asynchronous resets power on low: a falling edge makes their registers take the reset, as in the TS simulator.
    POWER_ON_RESETS: x.asyncResetInputs.map((n) => `m->top->${verilatorCppName(n)} = 1;\n    m->top->eval();\n    m->top->${verilatorCppName(n)} = 0;`).join('\n    '),
    SIGNAL_SPECS: rows(signalSpecs, '  {nullptr, "", 0},'),
    MEMORY_SPECS: rows(memorySpecs, '  {"", "", 0, 0},'),
    SIGNAL_COUNT: String(signalSpecs.length),
    MEMORY_COUNT: String(memorySpecs.length),
    PORT_LOOKUP: portLookup.join('\n'),
    TRACE_INCLUDE: trace ? '#include "verilated_vcd_c.h"' : '',
    TRACE_MEMBER: trace ? 'VerilatedVcdC* vcd = nullptr;' : '',
    TRACE_EVER_ON: trace ? 'm->ctx.traceEverOn(true);' : '',
    TRACE_DUMP_LOW: trace ? 'if (vcd) vcd->dump(10 * cycle);' : '',
    TRACE_DUMP_HIGH: trace ? 'if (vcd) vcd->dump(10 * cycle + 5);' : '',
    TRACE_DUMP_POKED: trace ? 'if (vcd) vcd->dump((uint64_t)(lastInstant + 1));' : '',
    TRACE_DUMP_AT: trace ? 'if (vcd) vcd->dump((uint64_t)at);' : '',
    // The waveform is complete after every step call (a viewer, or a crash later, sees every cycle).
    TRACE_FLUSH: trace ? 'if (m->vcd) m->vcd->flush();' : '',
    TRACE_OPEN: trace
      ? `${closeTrace}\n  m->vcd = new VerilatedVcdC;\n  m->top->trace(m->vcd, 99);${x.clocks.length > 1 ? '\n  m->vcd->set_time_unit("1ps");\n  m->vcd->set_time_resolution("1ps");' : ''}\n  m->vcd->open(path);\n  return m->vcd->isOpen() ? 0 : -2;`
      : 'return -1;',
    TRACE_CLOSE: trace ? closeTrace : '',
  };
  return readFileSync(template, 'utf8').replace(/\{\{([A-Z_]+)\}\}/g, (all, key: string) => {
    const v = parts[key];
    if (v === undefined) throw new Error(`internal: verilator_model.cpp has an unknown placeholder ${all}`);
    return v;
  });
}

/**
 * The configuration file that makes memories writable and registers readable from C++ by scope
 * (`public_flat_rw`/`public_flat_rd` per variable, so the rest of the model keeps every optimization).
 */
export function publicSignalsConfig(x: ExternalDesign): string {
  const lines = new Set<string>();
  for (const m of x.memories) lines.add(`public_flat_rw -module ${cString(m.sv.module)} -var ${cString(m.sv.path.at(-1)!)}`);
  for (const s of x.signals) if (!s.isPort) lines.add(`public_flat_rd -module ${cString(s.sv.module)} -var ${cString(s.sv.path.at(-1)!)}`);
  return ['`verilator_config', ...[...lines].sort()].join('\n') + '\n';
}
