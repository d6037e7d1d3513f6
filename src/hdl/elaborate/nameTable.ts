// Hands out unique, legal identifiers within one module, in request order (so names are stable).
export class NameTable {
  private readonly used = new Set<string>();

  constructor(reserved: readonly string[] = []) {
    for (const r of reserved) this.used.add(r);
  }

  has(name: string): boolean {
    return this.used.has(legalize(name));
  }

  /** `base` itself if free, else `base_1`, `base_2`, … */
  claim(base: string): string {
    const b = legalize(base);
    let name = b;
    for (let i = 1; this.used.has(name); i++) name = `${b}_${i}`;
    this.used.add(name);
    return name;
  }
}

/** Letters, digits and underscores, not starting with a digit. */
export function legalize(name: string): string {
  const s = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(s) ? s : `_${s}`;
}
