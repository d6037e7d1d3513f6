// Names for the nets lowering made up that several readers share: after their own operands and operator
// (`frame_state_eq_idle`, `patchDone_and_last`), not after their first reader (`frame_done_eq`).
import type { Cell, EnumInfo, ModuleIR, Net, NetId } from '../ir/netlist.ts';
import { moduleClocks, netReaderCounts } from '../ir/netlist.ts';

/** Longest name made from an expression; a longer one keeps the name lowering gave. */
export const NAME_LIMIT = 56;
/** Deepest expression (operators from the net down to named operands) a name spells out. */
export const DEPTH_LIMIT = 4;

const WORDS: Partial<Record<Cell['op'], string>> = {
  and: 'and',
  or: 'or',
  xor: 'xor',
  add: 'plus',
  sub: 'minus',
  mul: 'times',
  eq: 'eq',
  ne: 'ne',
  ult: 'lt',
  ule: 'le',
  slt: 'lt',
  sle: 'le',
  shl: 'shl',
  lshr: 'shr',
  ashr: 'ashr',
};

const PREFIXES: Partial<Record<Cell['op'], string>> = { not: 'not', redand: 'all', redor: 'any', redxor: 'parity' };

/** A spelled-out operand: its text and how many operators deep it is. */
interface Spelled {
  readonly s: string;
  readonly depth: number;
}

/**
 * The module with every shared made-up net (synthesized, read by two or more cells, registers, memory ports,
 * instances or properties) renamed after its expression, where that name is short (NAME_LIMIT), shallow
 * (DEPTH_LIMIT), starts with a letter and joins at most two concatenated parts. Operands that are named
 * nets read by their name, enum constants by their member's name in lower case, other constants by their
 * value; a shared operand that was renamed reads by its new name. Names are made unique in net order with
 * `_1`, `_2`, …; nets, registers and everything else are unchanged.
 */
export function nameSharedNets(mod: ModuleIR): ModuleIR {
  const driver = new Map<NetId, Cell>();
  for (const c of mod.cells) driver.set(c.out, c);
  const readers = netReaderCounts(mod);

  const shared = (n: Net): boolean => {
    const c = driver.get(n.id);
    return !!n.synthesized && n.kind === 'node' && readers[n.id]! >= 2 && !!c && c.op !== 'const' && c.op !== 'buf' && !(c.op === 'mux' && c.branch);
  };
  const taken = new Set<string>([...mod.nets.map((n) => n.name), ...mod.memories.map((m) => m.name), ...mod.instances.map((i) => i.name), ...moduleClocks(mod).map((c) => c.name)]);
  /** Final names of shared nets (their own when none was found), decided in dependency order. */
  const decided = new Map<NetId, string | null>();

  const leafName = (id: NetId, enumType: EnumInfo | undefined): string | null => {
    const n = mod.nets[id]!;
    const c = driver.get(id);
    if (c?.op === 'const' && n.synthesized) {
      const member = enumType?.members.find((m) => BigInt(m.value) === c.value);
      return member ? member.name.toLowerCase() : c.value.toString();
    }
    return null;
  };

  /** `level`: how many operators deep `id` sits under the net being named (1: that net itself). */
  const spell = (id: NetId, enumType: EnumInfo | undefined, level: number): Spelled | null => {
    const n = mod.nets[id]!;
    const lit = leafName(id, enumType);
    if (lit !== null) return { s: lit, depth: 0 };
    const c = driver.get(id);
    if (!n.synthesized || n.kind !== 'node' || !c) return { s: n.name, depth: 0 };
    if (level > 1 && shared(n)) {
      const name = nameOf(id);
      return name === null ? null : { s: name, depth: 0 };
    }
    if (level > DEPTH_LIMIT && c.op !== 'buf' && c.op !== 'zext') return null;
    const sub = (x: NetId, e?: EnumInfo) => spell(x, e, c.op === 'buf' || c.op === 'zext' ? level : level + 1);
    const join = (parts: (Spelled | null)[], text: (s: string[]) => string): Spelled | null =>
      parts.every((p) => p !== null) ? { s: text(parts.map((p) => p!.s)), depth: 1 + Math.max(...parts.map((p) => p!.depth)) } : null;
    switch (c.op) {
      case 'buf':
      case 'zext':
        return sub(c.a, enumType);
      case 'sext':
        return join([sub(c.a)], ([a]) => `${a}_ext`);
      case 'not': {
        // `~(a == b)` prints as `a != b`: named so.
        const inner = driver.get(c.a);
        const net = mod.nets[c.a]!;
        if ((inner?.op === 'eq' || inner?.op === 'ne') && net.synthesized && net.kind === 'node' && !shared(net)) {
          const e = mod.nets[inner.a]!.enumType ?? mod.nets[inner.b]!.enumType;
          return join([sub(inner.a, e), sub(inner.b, e)], ([a, b]) => `${a}_${inner.op === 'eq' ? 'ne' : 'eq'}_${b}`);
        }
        return join([sub(c.a)], ([a]) => `not_${a}`);
      }
      case 'redand':
      case 'redor':
      case 'redxor':
        return join([sub(c.a)], ([a]) => `${PREFIXES[c.op]}_${a}`);
      case 'slice': {
        const hi = c.lo + n.width - 1;
        return join([sub(c.a)], ([a]) => (hi === c.lo ? `${a}_bit_${c.lo}` : `${a}_bits_${hi}_${c.lo}`));
      }
      case 'concat':
        if (c.parts.length > 2) return null;
        return join(c.parts.map((p) => sub(p)), ([a, b]) => `${a}_cat_${b}`);
      case 'mux':
        return join([sub(c.sel), sub(c.a, n.enumType), sub(c.b, n.enumType)], ([s, a, b]) => `${a}_if_${s}_else_${b}`);
      case 'const':
        return null;
      default: {
        const e = c.op === 'eq' || c.op === 'ne' ? (mod.nets[c.a]!.enumType ?? mod.nets[c.b]!.enumType) : n.enumType;
        return join([sub(c.a, e), sub(c.b, e)], ([a, b]) => `${a}_${WORDS[c.op]}_${b}`);
      }
    }
  };

  function nameOf(id: NetId): string | null {
    if (decided.has(id)) return decided.get(id)!;
    // Marked first: a net never spells itself (the netlist has no combinational loop, but be safe).
    decided.set(id, null);
    const e = spell(id, undefined, 1);
    let name: string | null = null;
    if (e && e.depth <= DEPTH_LIMIT && e.s.length <= NAME_LIMIT && /^[A-Za-z]/.test(e.s)) {
      name = e.s;
      for (let i = 1; taken.has(name); i++) name = `${e.s}_${i}`;
      taken.add(name);
    }
    decided.set(id, name);
    return name;
  }

  let renamed = 0;
  const nets = mod.nets.map((n) => {
    if (!shared(n)) return n;
    const name = nameOf(n.id);
    if (name === null) return n;
    renamed++;
    return { ...n, name };
  });
  return renamed ? { ...mod, nets } : mod;
}
