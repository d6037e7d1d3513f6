// Names one parameterization of a module for SystemVerilog: readable when the parameters are simple.
import { createHash } from 'node:crypto';
import { legalize } from './nameTable.ts';

/** A stable text key for a parameter object (sorted keys). */
export function paramsKey(p: unknown): string {
  return JSON.stringify(p, (_k, v) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'function') return `fn:${v.name}:${String(v).length}`;
    if (v && typeof v === 'object' && !Array.isArray(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]));
    return v;
  }) ?? '';
}

const shortHash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 8);

/** `Fifo` + `_width8_depth16` for scalar parameters; a short hash stands in for structured ones. */
export function moduleVariantName(base: string, params: Record<string, unknown>): string {
  const keys = Object.keys(params).sort();
  if (keys.length === 0) return base;
  const parts = keys.map((k) => {
    const v = params[k];
    if (typeof v === 'number' || typeof v === 'bigint') return `${k}${String(v).replace('-', 'm').replace('.', 'p')}`;
    if (typeof v === 'boolean') return `${k}${v ? 1 : 0}`;
    if (typeof v === 'string' && /^[A-Za-z0-9_]{1,16}$/.test(v)) return `${k}_${v}`;
    return `${k}_${shortHash(paramsKey(v))}`;
  });
  const name = legalize(`${base}_${parts.join('_')}`);
  return name.length <= 64 ? name : `${base}_${shortHash(paramsKey(params))}`;
}
