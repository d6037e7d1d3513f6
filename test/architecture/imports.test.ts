// The layer boundaries of src/: no import cycles, hdl/lib on the public API only, gpu on hdl's layer indexes only (its hardware on rtgpu/hdl and rtgpu/hdl/lib), and the folder layering table.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildImportGraph, findCycles, type ImportEdge } from './importGraph.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const graph = buildImportGraph(root, `${root}src`);

/**
 * The layer units: the first prefix a file's path starts with names its unit. hdl/ is one unit per sub-folder
 * (src/hdl/index.ts alone is the public eDSL API), and so is designs/ (one per CLI command family). The models the
 * hardware is checked against stack from the arithmetic up: golden (binary32, single rays, the scene format, texture
 * sampling), scenes, bvh (builder, images and the golden traversals), iss (the ISA simulator, which traces through a
 * BVH). stimulus (seeded random programs and texture memories) feeds tests and verification code only.
 */
const UNITS: readonly (readonly [prefix: string, unit: string])[] = [
  ['src/hdl/index.ts', 'hdl'],
  ['src/hdl/core/', 'hdl/core'],
  ['src/hdl/ir/', 'hdl/ir'],
  ['src/hdl/elaborate/', 'hdl/elaborate'],
  ['src/hdl/emit/', 'hdl/emit'],
  ['src/hdl/lib/', 'hdl/lib'],
  ['src/hdl/tools/', 'hdl/tools'],
  ['src/hdl/sim/', 'hdl/sim'],
  ['src/hdl/testbench/', 'hdl/testbench'],
  ['src/hdl/synth/', 'hdl/synth'],
  ['src/hdl/cosim/', 'hdl/cosim'],
  ['src/hdl/formal/', 'hdl/formal'],
  ['src/golden/', 'golden'],
  ['src/scenes/', 'scenes'],
  ['src/bvh/', 'bvh'],
  ['src/iss/', 'iss'],
  ['src/isa/', 'isa'],
  ['src/stimulus/', 'stimulus'],
  ['src/util/', 'util'],
  ['src/gpu/', 'gpu'],
  ['src/host/', 'host'],
  ['src/designs/catalogue/', 'designs/catalogue'],
  ['src/designs/synth/', 'designs/synth'],
  ['src/designs/rtl/', 'designs/rtl'],
  ['src/designs/bench/', 'designs/bench'],
  ['src/cli/', 'cli'],
  ['src/types/', 'types'],
];

const HDL_ENGINE = ['hdl/ir', 'hdl/core', 'hdl/elaborate', 'hdl/emit'];
const HDL_LAYERS = ['hdl', 'hdl/lib', 'hdl/sim', 'hdl/testbench', 'hdl/cosim', 'hdl/synth', 'hdl/formal', 'hdl/tools'];
const MODELS = ['iss', 'bvh', 'scenes', 'golden', 'isa'];
const DESIGNS = ['designs/bench', 'designs/rtl', 'designs/synth', 'designs/catalogue'];

/** Which units each unit may import (besides itself). Read downward: nothing here may import a unit listed above it. */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  cli: [...DESIGNS, 'host', 'gpu', ...HDL_LAYERS, ...MODELS, 'util'],
  'designs/bench': ['designs/catalogue', 'host', 'gpu', ...HDL_LAYERS, ...MODELS, 'util'],
  'designs/rtl': ['designs/synth', 'designs/catalogue', 'host', 'gpu', ...HDL_LAYERS, ...MODELS, 'util'],
  'designs/synth': ['designs/catalogue', 'host', 'gpu', ...HDL_LAYERS, ...MODELS, 'util'],
  'designs/catalogue': ['host', 'gpu', ...HDL_LAYERS, ...MODELS, 'util'],
  host: ['gpu', ...HDL_LAYERS, ...MODELS, 'util'],
  gpu: ['hdl', 'hdl/lib', 'hdl/sim', 'hdl/testbench', 'hdl/cosim', 'stimulus', ...MODELS, 'util'],
  'hdl/lib': ['hdl'],
  'hdl/cosim': ['hdl/synth', 'hdl/testbench', 'hdl/sim', 'hdl/tools', 'hdl/emit', 'hdl/ir', 'util'],
  'hdl/synth': ['hdl/tools', 'hdl/emit', 'hdl/ir'],
  'hdl/formal': ['hdl/sim', 'hdl/tools', 'hdl/emit', 'hdl/ir'],
  'hdl/testbench': ['hdl/sim', 'util'],
  'hdl/sim': ['hdl/tools', 'hdl/emit', 'hdl/ir'],
  'hdl/tools': [],
  hdl: HDL_ENGINE,
  'hdl/emit': ['hdl/elaborate', 'hdl/ir'],
  'hdl/elaborate': ['hdl/core', 'hdl/ir'],
  'hdl/core': ['hdl/ir', 'hdl/tools'],
  'hdl/ir': [],
  stimulus: ['scenes', 'golden', 'isa', 'util'],
  iss: ['bvh', 'scenes', 'golden', 'isa'],
  bvh: ['scenes', 'golden'],
  scenes: ['golden'],
  isa: ['util'],
  golden: [],
  util: [],
  types: [],
};

/** The hdl files a layer above hdl/ may import: the layer indexes (what the package exports, and the tools the CLI and host runtime use). */
const HDL_INDEXES = new Set([
  'src/hdl/index.ts',
  'src/hdl/lib/index.ts',
  'src/hdl/sim/index.ts',
  'src/hdl/testbench/index.ts',
  'src/hdl/cosim/index.ts',
  'src/hdl/synth/index.ts',
  'src/hdl/formal/index.ts',
  'src/hdl/tools/index.ts',
]);

/** The eDSL a file that defines hardware may import, as a user of the package would: `rtgpu/hdl` and `rtgpu/hdl/lib`. */
const HARDWARE_HDL = new Set(['src/hdl/index.ts', 'src/hdl/lib/index.ts']);

/**
 * A GPU file defines hardware when it defines a module or black box or builds logic into one (takes a `ModuleBuilder`).
 * The others verify it (testbenches, co-simulation designs, golden models, runners) and may use the simulators.
 */
const definesHardware = (file: string): boolean => /\bdefineModule\(|\bdefineBlackBox\(|\bModuleBuilder\b/.test(readFileSync(`${root}${file}`, 'utf8'));

/** What verification code uses and hardware never does: the simulators and the reference models only tests run. */
const VERIFICATION_ONLY = ['src/hdl/sim/', 'src/hdl/testbench/', 'src/hdl/cosim/', 'src/iss/', 'src/stimulus/'];

/**
 * A verification file's name says its role: a co-simulation design (`Cosim`), a testbench or runner that drives the
 * block, stimulus and expected answers (`Vectors`, `Golden`), a check against a model (`Check`), or port packing (`Words`).
 */
const VERIFICATION_ROLE = /\/verification\/\w+(Cosim|Testbench|Runner|Vectors|Golden|Check|Words)\.ts$/;

/** Every file reachable from the start files by imports, the start files included. */
function reachableFrom(start: readonly string[]): Set<string> {
  const seen = new Set(start);
  const todo = [...start];
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    for (const e of graph.edges) {
      if (e.from === file && !seen.has(e.to)) {
        seen.add(e.to);
        todo.push(e.to);
      }
    }
  }
  return seen;
}

/**
 * Imports allowed to break a rule, each with the reason. Type-only imports count like any other (a reader follows them
 * the same way), so one is listed here only when the type cannot live on the importer's side of the boundary.
 */
const ALLOWED: readonly { readonly from: string; readonly to: string; readonly reason: string }[] = [];

const isAllowed = (e: ImportEdge): boolean => ALLOWED.some((a) => a.from === e.from && a.to === e.to);

function unitOf(file: string): string {
  const hit = UNITS.find(([prefix]) => file === prefix || (prefix.endsWith('/') && file.startsWith(prefix)));
  if (!hit) throw new Error(`${file} is in no layer unit: add its folder to UNITS in test/architecture/imports.test.ts`);
  return hit[1];
}

const describeEdge = (e: ImportEdge): string => `${e.from} -> ${e.to}${e.typeOnly ? ' (type-only)' : ''}`;

describe('import graph of src/', () => {
  it('finds the files and their imports', () => {
    // Guards the parser: an empty graph would pass every rule below.
    expect(graph.files.length).toBeGreaterThan(200);
    expect(graph.edges.length).toBeGreaterThan(graph.files.length);
    expect(graph.edges).toContainEqual({ from: 'src/hdl/lib/fifo.ts', to: 'src/hdl/index.ts', typeOnly: false });
  });

  it('has no file-level import cycles', () => {
    const edges = graph.edges.filter((e) => !isAllowed(e));
    const cycles = findCycles(graph.files, edges).map((c) => c.join(' -> '));
    expect(cycles, `import cycles:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('builds hdl/lib on the public API only', () => {
    const bad = graph.edges
      .filter((e) => e.from.startsWith('src/hdl/lib/') && !isAllowed(e))
      .filter((e) => e.to !== 'src/hdl/index.ts' && !e.to.startsWith('src/hdl/lib/'))
      .map(describeEdge);
    expect(bad, `hdl/lib imports outside the public API:\n${bad.join('\n')}`).toEqual([]);
  });

  it('reaches hdl/ from the layers above it only through the layer indexes', () => {
    const above = ['src/gpu/', 'src/host/', 'src/designs/', 'src/cli/'];
    const bad = graph.edges
      .filter((e) => above.some((p) => e.from.startsWith(p)) && e.to.startsWith('src/hdl/') && !HDL_INDEXES.has(e.to) && !isAllowed(e))
      .map(describeEdge);
    expect(bad, `imports of hdl/ internals:\n${bad.join('\n')}`).toEqual([]);
  });

  it('builds the GPU\'s hardware on rtgpu/hdl and rtgpu/hdl/lib only, directly or through the GPU\'s own files', () => {
    const hardware = graph.files.filter((f) => f.startsWith('src/gpu/') && definesHardware(f));
    expect(hardware.length).toBeGreaterThan(50);
    // What a hardware file reaches through files outside hdl/ (hdl's indexes lead on to its internals, which is their business).
    const bad: string[] = [];
    for (const start of hardware) {
      const seen = new Set([start]);
      const todo = [start];
      for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
        for (const e of graph.edges.filter((x) => x.from === file && !isAllowed(x))) {
          if (e.to.startsWith('src/hdl/')) {
            if (!HARDWARE_HDL.has(e.to)) bad.push(`${start}${e.from === start ? '' : ` (through ${e.from})`}: ${describeEdge(e)}`);
          } else if (!seen.has(e.to)) {
            seen.add(e.to);
            todo.push(e.to);
          }
        }
      }
    }
    expect(bad, `hardware importing more of the eDSL than rtgpu/hdl and rtgpu/hdl/lib:\n${bad.join('\n')}`).toEqual([]);
  });

  it('keeps each GPU block\'s verification code in its verification/ folder, named by role, out of the hardware\'s reach', () => {
    const gpu = graph.files.filter((f) => f.startsWith('src/gpu/'));
    const inVerification = (f: string): boolean => f.includes('/verification/');
    const reached = reachableFrom(gpu.filter(definesHardware));
    const verifies = (f: string): boolean => graph.edges.some((e) => e.from === f && VERIFICATION_ONLY.some((p) => e.to.startsWith(p)));
    const elaborates = (f: string): boolean => /\belaborate\(/.test(readFileSync(`${root}${f}`, 'utf8'));
    const misplaced = gpu
      .filter((f) => !inVerification(f))
      .filter((f) => verifies(f) || !(definesHardware(f) || reached.has(f) || f === 'src/gpu/index.ts' || elaborates(f)));
    expect(misplaced, `verification code outside a verification/ folder (it runs a simulator or serves no hardware):\n${misplaced.join('\n')}`).toEqual([]);
    const badNames = gpu.filter((f) => inVerification(f) && !VERIFICATION_ROLE.test(f));
    expect(badNames, `verification files named by no role (${VERIFICATION_ROLE.source}):\n${badNames.join('\n')}`).toEqual([]);
    const intoVerification = [...reached].filter(inVerification);
    expect(intoVerification, `hardware reaching verification code:\n${intoVerification.join('\n')}`).toEqual([]);
  });

  it('keeps every folder to the layering table', () => {
    const bad = graph.edges
      .filter((e) => !isAllowed(e))
      .filter((e) => {
        const from = unitOf(e.from);
        const to = unitOf(e.to);
        return from !== to && !(MAY_IMPORT[from] ?? []).includes(to);
      })
      .map((e) => `${unitOf(e.from)} -> ${unitOf(e.to)}: ${describeEdge(e)}`);
    expect(bad, `imports against the layering table:\n${bad.join('\n')}`).toEqual([]);
  });

  it('has a layering table without folder-level cycles', () => {
    for (const [unit, allowed] of Object.entries(MAY_IMPORT)) {
      expect(UNITS.map(([, u]) => u), `MAY_IMPORT names ${unit}`).toContain(unit);
      for (const to of allowed) expect(Object.keys(MAY_IMPORT), `${unit} may import ${to}`).toContain(to);
    }
    const units = Object.keys(MAY_IMPORT);
    const edges = units.flatMap((from) => MAY_IMPORT[from]!.map((to) => ({ from, to })));
    const cycles = findCycles(units, edges).map((c) => c.join(' -> '));
    expect(cycles, `folder-level cycles in the table:\n${cycles.join('\n')}`).toEqual([]);
  });
});

describe('findCycles', () => {
  it('reports a cycle as its path and nothing for a DAG', () => {
    expect(findCycles(['a', 'b', 'c'], [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }])).toEqual([]);
    expect(findCycles(['a', 'b', 'c'], [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'a' }])).toEqual([['a', 'b', 'c', 'a']]);
  });
});
