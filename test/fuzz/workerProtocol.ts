// What the fuzz runner (scripts/fuzz.ts) and its worker threads (fuzzWorker.ts) pass each other.

export interface WorkerJob {
  readonly target: string;
  readonly seed: number;
  readonly corpus: readonly Uint8Array[];
  readonly runs?: number;
  readonly seconds?: number;
  /** [0] input sequence number, [1] its length, then (as Float64 at byte 8) when it started, then its bytes at byte 16. */
  readonly shared: SharedArrayBuffer;
}

export type WorkerMessage =
  | { readonly kind: 'corpus'; readonly input: Uint8Array }
  | { readonly kind: 'crash'; readonly input: Uint8Array; readonly key: string; readonly message: string; readonly stack: string }
  | { readonly kind: 'progress' | 'done'; readonly runs: number; readonly corpusSize: number };

export const SHARED_HEADER_BYTES = 16;
