// Enumerations in SystemVerilog: one `typedef enum` per enum a module uses, its members named after the TypeScript ones.
import type { EnumInfo } from '../ir/netlist.ts';
import type { IdentifierMap } from './identifiers.ts';

export interface EnumNames {
  /** The identifier of the member of `e` with value `v` (recorded as used), or undefined if `e` has none. */
  member(e: EnumInfo | undefined, v: bigint): string | undefined;
  typeName(e: EnumInfo): string;
  /** Enums whose members were named so far. */
  referenced(): Iterable<EnumInfo>;
}

const constantName = (e: EnumInfo, member: string) => `${e.name}_${member}`.toUpperCase().replace(/[^A-Z0-9_]/g, '_');

/** Names for the enums of a module, claimed in `ids` as they are first used. */
export function enumIdentifiers(ids: IdentifierMap): EnumNames {
  const used = new Map<string, EnumInfo>();
  const key = (e: EnumInfo, m: string) => `${e.name}\u0000${m}`;
  return {
    member(e, v) {
      const m = e?.members.find((x) => BigInt(x.value) === v);
      if (!e || !m) return undefined;
      if (!used.has(e.name)) {
        used.set(e.name, e);
        for (const x of e.members) ids.named(key(e, x.name), constantName(e, x.name));
      }
      return ids.named(key(e, m.name), constantName(e, m.name));
    },
    typeName(e) {
      if (!used.has(e.name)) this.member(e, BigInt(e.members[0]!.value));
      return ids.named(`${e.name}\u0000\u0000type`, `${e.name}_t`);
    },
    referenced: () => used.values(),
  };
}

/** The typedef lines of one enum (members in value order). */
export function enumTypedef(e: EnumInfo, names: EnumNames): string[] {
  const width = Math.max(1, Math.ceil(Math.log2(e.members.length)));
  const range = width === 1 ? '' : ` [${width - 1}:0]`;
  const members = [...e.members].sort((a, b) => a.value - b.value);
  return [
    `  typedef enum logic${range} {`,
    ...members.map((m, i) => `    ${names.member(e, BigInt(m.value))} = ${width}'d${m.value}${i < members.length - 1 ? ',' : ''}`),
    `  } ${names.typeName(e)};`,
  ];
}
