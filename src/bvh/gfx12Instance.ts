// The GFX12 instance node of seed 000 (node_type 6, 128 bytes): world_to_object, the BLAS address, user_data and up to four quantized object-space boxes (docs/bvh.md "Instance nodes").
import type { Mat3x4 } from '../golden/rayTransform.ts';
import { MAT3X4_WORDS } from '../golden/rayTransform.ts';
import { BitCursor, GFX12_NODE_WORDS, Gfx12Error, fieldCheck, getQuantizedChild, putQuantizedChildren, type Gfx12BoxChild, type Gfx12QuantizedBoxes } from './gfx12.ts';

/** node_type of an instance child (radv's GFX12 instance). */
export const BVH8_INSTANCE_TYPE = 6;
/** At most four quantized children (seed 000). */
export const GFX12_INSTANCE_MAX_CHILDREN = 4;
/** user_data is 24 bits. */
export const GFX12_MAX_USER_DATA = 2 ** 24 - 1;
/** bvh_addr is 62 bits in units of 4 bytes; we keep it within exact JavaScript integers. */
const MAX_BVH_ADDR = Number.MAX_SAFE_INTEGER;

export interface Gfx12InstanceNodeInput {
  /** The 3×4 matrix from world to object space, 12 binary32 bit patterns, row major. */
  readonly worldToObject: Mat3x4;
  /** The BLAS root box node's address in units of 4 bytes (image relative: node k is 32·k). */
  readonly bvhAddr: number;
  /** Does the BLAS contain AABBs (default false: ours hold triangles only). */
  readonly aabbs?: boolean;
  /** The seed's unused 32-bit word after bvh_addr: here the instance's shader id (0: the triangles' own). Default 0. */
  readonly shaderId?: number;
  /** 24 bits returned for a hit in this instance: the instance id. */
  readonly userData: number;
  /** Default 0xFF. */
  readonly cullMask?: number;
  /** 1 to 4 boxes in object space (the BLAS's bounds); node_type and node_size are written as given and not read. */
  readonly children: readonly Gfx12BoxChild[];
}

export interface Gfx12InstanceNode extends Gfx12QuantizedBoxes {
  readonly worldToObject: Mat3x4;
  readonly bvhAddr: number;
  readonly aabbs: boolean;
  readonly shaderId: number;
  readonly userData: number;
  readonly cullMask: number;
}

/**
 * Pack an instance node: world_to_object (384 bits), bvh_addr (62), aabbs (1), one unused bit, the unused word
 * (the shader id), user_data (24), cull_mask (8), then origin, exponents, 4 unused bits, child_count_minus_one and
 * the children quantized exactly as a box node's (conservative); the slots of absent children stay 0.
 */
export function encodeGfx12InstanceNode(input: Gfx12InstanceNodeInput): Uint32Array {
  const kids = input.children;
  if (kids.length < 1 || kids.length > GFX12_INSTANCE_MAX_CHILDREN) throw new Gfx12Error(`an instance node has 1 to ${GFX12_INSTANCE_MAX_CHILDREN} children, got ${kids.length}`);
  if (input.worldToObject.length !== MAT3X4_WORDS) throw new Gfx12Error(`world_to_object is ${MAT3X4_WORDS} binary32 words (3×4, row major), got ${input.worldToObject.length}`);
  const addr = input.bvhAddr;
  if (!Number.isInteger(addr) || addr < 0 || addr > MAX_BVH_ADDR) throw new Gfx12Error(`bvhAddr must be an integer from 0 to ${MAX_BVH_ADDR}, got ${addr}`);
  const w = new BitCursor(new Uint32Array(GFX12_NODE_WORDS));
  for (const x of input.worldToObject) w.put(32, fieldCheck('world_to_object word', x, 32));
  w.put(32, addr % 2 ** 32).put(30, Math.floor(addr / 2 ** 32));
  w.put(1, input.aabbs ? 1 : 0).put(1, 0);
  w.put(32, fieldCheck('shaderId', input.shaderId ?? 0, 32));
  w.put(24, fieldCheck('userData', input.userData, 24)).put(8, fieldCheck('cullMask', input.cullMask ?? 0xff, 8));
  putQuantizedChildren(w, kids);
  return w.words;
}

export function decodeGfx12InstanceNode(words: Uint32Array): Gfx12InstanceNode {
  if (words.length !== GFX12_NODE_WORDS) throw new Gfx12Error(`an instance node is ${GFX12_NODE_WORDS} words, got ${words.length}`);
  const r = new BitCursor(words);
  const worldToObject = Array.from({ length: MAT3X4_WORDS }, () => r.get(32));
  const bvhAddr = r.get(32) + r.get(30) * 2 ** 32;
  const aabbs = r.get(1) === 1;
  r.get(1);
  const shaderId = r.get(32);
  const [userData, cullMask] = [r.get(24), r.get(8)];
  const origin = [r.get(32), r.get(32), r.get(32)] as const;
  const exponents = [r.get(8), r.get(8), r.get(8)] as const;
  r.get(4);
  const count = r.get(4) + 1;
  if (count > GFX12_INSTANCE_MAX_CHILDREN) throw new Gfx12Error(`child_count_minus_one is ${count - 1}; an instance node has at most ${GFX12_INSTANCE_MAX_CHILDREN} children`);
  const children = Array.from({ length: count }, () => getQuantizedChild(r));
  return { worldToObject, bvhAddr, aabbs, shaderId, userData, cullMask, origin, exponents, children };
}
