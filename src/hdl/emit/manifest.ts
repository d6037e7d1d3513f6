// The machine-readable summary of an emitted design, read from the netlist: per module its file, parameters, ports and memories.
import type { Design, ModuleIR } from '../ir/netlist.ts';
import { paramsKey } from '../elaborate/variantName.ts';
import { IdentifierMap } from './identifiers.ts';
import { hexFileName } from './memoryImage.ts';

export interface ManifestPort {
  readonly name: string;
  readonly direction: 'input' | 'output';
  readonly width: number;
}

export interface ManifestMemory {
  readonly name: string;
  readonly width: number;
  readonly depth: number;
  /** The `$readmemh` image, relative to the manifest's directory; absent when the memory powers on as zeros. */
  readonly init?: string;
}

export interface ManifestModule {
  readonly name: string;
  /** Relative to the manifest's directory. */
  readonly file: string;
  /** The parameters the module was elaborated with (encoded in its name); bigints and functions as text. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** As the SystemVerilog declares them: the implicit `clk` first (clocked modules), then the netlist's ports. */
  readonly ports: readonly ManifestPort[];
  readonly memories: readonly ManifestMemory[];
  /** Modules it instantiates, in order of first use. */
  readonly submodules: readonly string[];
}

/** Every module of `design` in dependency order (children first), its files under `dir` (e.g. `rtgpu_top`). */
export function manifestModules(design: Design, dir: string): ManifestModule[] {
  return design.modules.map((m) => ({
    name: m.name,
    file: `${dir}/${m.name}.sv`,
    // paramsKey is the text the variant name was derived from: sorted keys, JSON-safe values.
    parameters: JSON.parse(paramsKey(m.params) || '{}') as Record<string, unknown>,
    ports: manifestPorts(m),
    memories: m.memories.map((mem) => ({
      name: mem.name,
      width: mem.width,
      depth: mem.depth,
      ...(mem.init ? { init: `${dir}/${hexFileName(m.name, mem.name)}` } : {}),
    })),
    submodules: [...new Set(m.instances.map((i) => i.module))],
  }));
}

function manifestPorts(m: ModuleIR): ManifestPort[] {
  // Legalized the way the emitter declares them (clock reserved, ports mapped first), so names match the .sv.
  const ids = new IdentifierMap(m.clocked ? ['clk'] : []);
  const ports = m.ports.map((id) => {
    const n = m.nets[id]!;
    return { name: ids.get(n.name), direction: n.kind === 'input' ? 'input' : 'output', width: n.width } as const;
  });
  return [...(m.clocked ? [{ name: 'clk', direction: 'input', width: 1 } as const] : []), ...ports];
}
