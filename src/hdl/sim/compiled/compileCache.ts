// The TS simulator's compile cache: netlist images and fused run loops, by the content of the design and of rtgpu's own code.
import type { Design, NetId } from '../../ir/netlist.ts';
import { contentHash, readCachedValue, writeCachedValue } from '../../tools/buildCache.ts';
import { codeFingerprint } from '../../tools/codeFingerprint.ts';
import type { ImageOptions, NetlistImage } from './netlistImage.ts';
import type { RunActivity } from './wasmValues.ts';
import { wasmLimits } from './wasmEncoding.ts';

/**
 * Designs of fewer cells (summed over their modules) compile in tens of milliseconds: they are neither
 * looked up nor stored (reading one back would save little, and small designs are many). Decided by size,
 * not by the time a compile took, so that what is cached does not depend on the machine's load.
 */
const MIN_CACHED_CELLS = 1000;

/**
 * The cache key of `design`'s image: its full content (every module, name and source location), the
 * options and engine limits that change the image, and rtgpu's code (codeFingerprint). Undefined for a small design, or one
 * that cannot be serialized (then it is compiled every time).
 */
export function imageKey(design: Design, opts: ImageOptions): string | undefined {
  if (design.modules.reduce((n, m) => n + m.cells.length, 0) < MIN_CACHED_CELLS) return undefined;
  let content: string;
  try {
    content = canonicalText(design);
  } catch {
    return undefined;
  }
  // The engine limits decide how the code is split into functions (tests lower them).
  const options = `optimize=${opts.optimize ?? true} properties=${opts.checkProperties ?? true} js=${opts.backend === 'js'} limits=${wasmLimits.functionBytes},${wasmLimits.locals}`;
  return contentHash([codeFingerprint(), options, content]);
}

/**
 * The same text for equal values. Not v8.serialize: it writes a number as an integer or a double as V8
 * happens to hold it, so one design can serialize two ways.
 */
function canonicalText(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (v instanceof Map) return { map: [...v] };
    if (v instanceof Set) return { set: [...v] };
    if (ArrayBuffer.isView(v)) return { [v.constructor.name]: [...(v as unknown as Iterable<number>)] };
    if (typeof v === 'function' || typeof v === 'symbol') throw new Error('not plain data');
    return v;
  });
}

/** The image of `key` from the cache, or made by `make` and stored. */
export function cachedImage(key: string, make: () => NetlistImage): { image: NetlistImage; fromCache: boolean } {
  const stored = readCachedValue('ts-sim', key);
  if (stored !== undefined) return { image: stored as NetlistImage, fromCache: true };
  const image = make();
  storeSoon('ts-sim', key, image);
  return { image, fromCache: false };
}

/** A fused run loop's WebAssembly (its port lists and activity plan) for the image of `imageKey`. */
export function cachedRunLoop(imageKey: string, inputs: readonly NetId[], outputs: readonly NetId[], activity: RunActivity, make: () => Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  // Every field of the plan, present and future, is part of the key.
  const plan = canonicalText(activity);
  const key = contentHash([imageKey, inputs.join(','), outputs.join(','), plan]);
  const stored = readCachedValue('ts-sim-run', key);
  if (stored !== undefined) return stored as Uint8Array<ArrayBuffer>;
  const bytes = make();
  storeSoon('ts-sim-run', key, bytes);
  return bytes;
}

/**
 * Stores a value once the current task is done: serializing and compressing the GPU's image takes about
 * 0.4 s, which the first cycle need not wait for. A process keeps running until it is written.
 */
function storeSoon(kind: string, key: string, value: unknown): void {
  setImmediate(() => writeCachedValue(kind, key, value));
}
