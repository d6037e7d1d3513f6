// `$readmemh` images of memories with initial contents: one zero-padded hex word per line, every address.
import type { Memory } from '../ir/netlist.ts';

export function hexFileName(moduleName: string, memoryName: string): string {
  return `${moduleName}_${memoryName}.hex`;
}

export function hexText(mem: Memory): string {
  const digits = Math.ceil(mem.width / 4);
  const lines: string[] = [];
  for (let i = 0; i < mem.depth; i++) lines.push((mem.init?.[i] ?? 0n).toString(16).padStart(digits, '0'));
  return lines.join('\n') + '\n';
}
