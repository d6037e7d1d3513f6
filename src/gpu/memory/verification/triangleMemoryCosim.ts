// The triangle memory as a co-simulation design: random images loaded, random lookups, a cycle-accurate model.
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { TRIANGLE_MEMORY_LATENCY, TriangleMemory, triangleIdBits, vertexIndexBits, type TriangleMemoryParams } from '../triangleMemory.ts';

/** Small and not powers of two, so that overflow and out-of-range indices are reached often. */
export const triangleMemoryCosimParams: TriangleMemoryParams = { triangles: 24, vertices: 40 };

const b = (x: boolean): bigint => (x ? 1n : 0n);

// ---------------------------------------------------------------- stimulus

/** Which kind of image the stimulus streams next. */
type ImageKind = 'fits' | 'full' | 'too_many_triangles' | 'too_many_vertices' | 'bad_index';

function randomImageKind(rng: Rng): ImageKind {
  const k = rng.int(16);
  return k < 10 ? 'fits' : k < 12 ? 'full' : k === 12 ? 'too_many_triangles' : k === 13 ? 'too_many_vertices' : 'bad_index';
}

/**
 * A random image in the original team's layout: usually a scene that fits (sometimes exactly the
 * capacity), sometimes one with too many triangles or vertices or a vertex index past the banks. Some
 * vertices are all zero (like the terminator) and some unused words hold junk.
 */
export function randomImage(rng: Rng, p: TriangleMemoryParams): Uint32Array {
  const kind = randomImageKind(rng);
  const triangles = kind === 'full' ? p.triangles : kind === 'too_many_triangles' ? p.triangles + 1 + rng.int(2) : rng.int(p.triangles + 1);
  const vertices = kind === 'full' ? p.vertices : kind === 'too_many_vertices' ? p.vertices + 1 + rng.int(2) : 1 + rng.int(p.vertices);
  const badTriangle = kind === 'bad_index' ? rng.int(Math.max(triangles, 1)) : -1;
  const vertexIndex = (bad: boolean): number => {
    if (bad) return rng.int(2) === 0 ? p.vertices + rng.int(4) : (rng.u32() | 0x80000000) >>> 0;
    // Now and then a vertex inside the banks that this image does not load: stale but defined.
    return rng.int(50) === 0 ? rng.int(p.vertices) : rng.int(vertices);
  };
  const words: number[] = [];
  for (let t = 0; t < triangles; t++) {
    const badSlot = t === badTriangle ? rng.int(3) : -1;
    words.push(vertexIndex(badSlot === 0), vertexIndex(badSlot === 1), vertexIndex(badSlot === 2), rng.int(8) === 0 ? rng.u32() || 1 : 1 + rng.int(16));
  }
  words.push(0, 0, 0, 0);
  for (let v = 0; v < vertices; v++) {
    const zero = rng.int(10) === 0;
    words.push(zero ? 0 : rng.u32(), zero ? 0 : rng.u32(), zero ? 0 : rng.u32(), rng.int(10) === 0 ? rng.u32() : 0);
  }
  words.push(0, 0, 0, 0);
  return Uint32Array.from(words);
}

/** What the stimulus generator remembers between cycles: the image being streamed and where it is. */
interface StreamState {
  image: Uint32Array | null;
  next: number;
}

function triangleMemoryStimulus(p: TriangleMemoryParams): CosimDesign['stimulus'] {
  let stream: StreamState = { image: null, next: 0 };
  const idLimit = 1 << triangleIdBits(p);
  return (cycle, rng) => {
    if (cycle === 0) stream = { image: null, next: 0 }; // a new run: the seed alone decides the stimulus
    const s: Record<string, bigint> = {
      rst_n: cycle < 2 || rng.int(5000) === 0 ? 0n : 1n,
      load_start: 0n,
      load_valid: 0n,
      load_data: 0n,
      read_req_valid: b(rng.int(4) !== 0),
      read_req_id: BigInt(rng.int(4) === 0 ? rng.int(idLimit) : Math.min(rng.int(p.triangles + 2), idLimit - 1)),
    };
    if (s.rst_n === 0n) {
      stream = { image: null, next: 0 };
      return s;
    }
    // A new image when idle, and now and then one that cuts into the image being streamed.
    if ((stream.image === null && rng.int(200) === 0) || (stream.image !== null && rng.int(3000) === 0)) {
      stream = { image: randomImage(rng, p), next: 0 };
      s.load_start = 1n;
    }
    if (stream.image !== null && rng.int(5) !== 0) {
      s.load_valid = 1n;
      s.load_data = BigInt(stream.image[stream.next++]!);
      if (stream.next === stream.image.length) stream = { image: null, next: 0 };
    } else if (stream.image === null && rng.int(4000) === 0) {
      s.load_valid = 1n; // a stray word after the image: one more vertex record
      s.load_data = BigInt(rng.int(2) === 0 ? 0 : rng.u32());
    }
    return s;
  };
}

// ---------------------------------------------------------------- golden model

interface IndexEntry {
  readonly vertices: readonly [number, number, number];
  readonly shader: number;
}

const EMPTY_ENTRY: IndexEntry = { vertices: [0, 0, 0], shader: 0 };

interface Stage1 {
  readonly valid: boolean;
  readonly notValid: boolean;
  readonly entry: IndexEntry;
}

interface Stage2 {
  readonly valid: boolean;
  readonly notValid: boolean;
  readonly shader: number;
  /** x | y << 32 | z << 64 of each vertex. */
  readonly vertices: readonly bigint[];
}

/**
 * The triangle memory as the documentation describes it, one clock edge at a time: the image parser,
 * the index table and X/Y/Z banks (read-first), and the two-stage lookup.
 */
export class TriangleMemoryModel {
  private readonly indexTable: IndexEntry[];
  private readonly banks: Uint32Array[];
  private inVertexPhase = false;
  private wordOfRecord = 0;
  private triangleCount = 0;
  private vertexRecord = 0;
  private loadError = false;
  private staged: [number, number, number] = [0, 0, 0];
  private stagedBad = false;
  private stage1: Stage1 = { valid: false, notValid: false, entry: EMPTY_ENTRY };
  private stage2: Stage2 = { valid: false, notValid: false, shader: 0, vertices: [0n, 0n, 0n] };

  constructor(private readonly p: TriangleMemoryParams) {
    this.indexTable = Array.from({ length: p.triangles }, () => EMPTY_ENTRY);
    this.banks = [0, 1, 2].map(() => new Uint32Array(p.vertices));
  }

  /** The outputs during the current cycle (they depend on registers only). */
  outputs(): Record<string, bigint> {
    const s = this.stage2;
    const answer = s.valid && !s.notValid;
    return {
      load_error: b(this.loadError),
      load_triangle_count: BigInt(this.triangleCount),
      read_resp_valid: b(s.valid),
      read_resp_not_valid: b(s.valid && s.notValid),
      read_resp_v0: answer ? s.vertices[0]! : 0n,
      read_resp_v1: answer ? s.vertices[1]! : 0n,
      read_resp_v2: answer ? s.vertices[2]! : 0n,
      read_resp_shader: answer ? BigInt(s.shader & 0xffff) : 0n,
      read_resp_mask: answer ? BigInt(~(s.shader >>> 16) & 0xff) : 0n,
      read_resp_one_sided: answer ? BigInt((s.shader >>> 24) & 1) : 0n,
    };
  }

  /** One rising edge with these inputs applied. */
  clock(ins: Readonly<Record<string, bigint>>): void {
    // Every memory read sees the contents before this edge's writes.
    const id = Number(ins.read_req_id);
    const reqValid = ins.read_req_valid === 1n;
    const nextStage2: Stage2 = {
      valid: this.stage1.valid,
      notValid: this.stage1.notValid,
      shader: this.stage1.entry.shader,
      vertices: this.stage1.entry.vertices.map((v) => this.vertexWord(v)),
    };
    const nextStage1: Stage1 = { valid: reqValid, notValid: reqValid && id >= this.triangleCount, entry: this.indexTable[id] ?? EMPTY_ENTRY };
    this.load(ins.load_start === 1n, ins.load_valid === 1n, Number(ins.load_data));
    this.stage1 = nextStage1;
    this.stage2 = nextStage2;
    if (ins.rst_n === 0n) this.reset();
  }

  private vertexWord(v: number): bigint {
    const [x, y, z] = this.banks.map((bank) => BigInt(bank[v] ?? 0));
    return x! | (y! << 32n) | (z! << 64n);
  }

  private reset(): void {
    this.restartParse();
    this.stage1 = { ...this.stage1, valid: false, notValid: false };
    this.stage2 = { ...this.stage2, valid: false, notValid: false };
  }

  private restartParse(): void {
    this.inVertexPhase = false;
    this.wordOfRecord = 0;
    this.triangleCount = 0;
    this.vertexRecord = 0;
    this.loadError = false;
  }

  private load(start: boolean, valid: boolean, word: number): void {
    if (start) this.restartParse();
    if (!valid || this.loadError) return;
    const at = this.wordOfRecord;
    this.wordOfRecord = (at + 1) % 4;
    if (this.inVertexPhase) this.vertexWordArrived(at, word);
    else this.triangleWordArrived(at, word);
  }

  private triangleWordArrived(at: number, word: number): void {
    if (at < 3) {
      this.staged[at] = word % 2 ** vertexIndexBits(this.p);
      this.stagedBad = (at > 0 && this.stagedBad) || word >= this.p.vertices;
      return;
    }
    if (word === 0) this.inVertexPhase = true;
    else if (this.triangleCount === this.p.triangles || this.stagedBad) this.loadError = true;
    else this.indexTable[this.triangleCount++] = { vertices: [...this.staged], shader: word };
  }

  private vertexWordArrived(at: number, word: number): void {
    const record = this.vertexRecord;
    if (at === 3) this.vertexRecord++;
    if (record < this.p.vertices) {
      if (at < 3) this.banks[at]![record] = word;
    } else if (record > this.p.vertices || word !== 0) this.loadError = true;
  }
}

function triangleMemoryGolden(p: TriangleMemoryParams): GoldenModel {
  const model = new TriangleMemoryModel(p);
  return {
    check(_cycle, ins, outs) {
      const want = model.outputs();
      const wrong = Object.keys(want).find((k) => outs[k] !== want[k]);
      model.clock(ins);
      return wrong === undefined ? null : `${wrong} is 0x${outs[wrong]?.toString(16)}, the model expects 0x${want[wrong]!.toString(16)}`;
    },
  };
}

export const triangleMemoryCosimDesign: CosimDesign = {
  name: 'triangle_memory',
  description: `triangle memory (${triangleMemoryCosimParams.triangles} triangles, ${triangleMemoryCosimParams.vertices} vertices): random images streamed in, lookups with latency ${TRIANGLE_MEMORY_LATENCY}`,
  elaborate: () => elaborate(TriangleMemory, triangleMemoryCosimParams).design,
  stimulus: triangleMemoryStimulus(triangleMemoryCosimParams),
  golden: () => triangleMemoryGolden(triangleMemoryCosimParams),
};
