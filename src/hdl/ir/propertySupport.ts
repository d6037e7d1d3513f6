// The named signals a property's condition is computed from: what a failure shows, in every simulator.
import type { Cell, ModuleIR, NetId, Property } from './netlist.ts';
import { cellInputs } from './netlist.ts';

/** Named signals shown with a failure. */
const SHOWN = 8;

/**
 * The named nets a property's condition is computed from: walking back from it through nets the lowering
 * made up (operator results), stopping at named ones (ports, registers, wires, named values), at most SHOWN.
 * On a flattened design (the TS simulator) and on the module that declares the property (the emitted SV
 * prints them with its `$error`) it finds the same nets, the flattened names with the instance path in front.
 */
export function propertySupport(mod: ModuleIR, p: Property): NetId[] {
  const driver = new Map<NetId, Cell>();
  for (const c of mod.cells) driver.set(c.out, c);
  const out: NetId[] = [];
  const seen = new Set<NetId>();
  const visit = (id: NetId, depth: number) => {
    if (seen.has(id) || out.length >= SHOWN || depth > 64) return;
    seen.add(id);
    const net = mod.nets[id]!;
    const cell = driver.get(id);
    const inputs = cell && cellInputs(cell);
    if (inputs && inputs.length === 0) return; // a constant
    // The condition itself is shown by its operands (it is 0); a register or input by its value. A named
    // copy (a submodule's input port, flattened) is shown itself, as in the module that declares it.
    if (inputs === undefined || (!net.synthesized && (depth > 0 || cell!.op === 'buf'))) return void out.push(id);
    for (const i of inputs) visit(i, depth + 1);
  };
  // An X check shows its value itself (as an operand); others, the operands of their condition.
  if (p.known !== undefined) visit(p.known, 1);
  else visit(p.cond, 0);
  return out;
}
