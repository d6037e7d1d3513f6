// The fuzzing loop: mutate corpus entries, run the target, keep inputs whose outcome is new (a new
// error message shape, or a new size of success), report every error the target does not mean to raise.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from '../../src/util/seededRandom.ts';
import { Mutator } from './mutator.ts';
import type { FuzzTarget } from './targets.ts';

export interface Crash {
  readonly input: Uint8Array;
  /** Error name and message with numbers and quoted text replaced: one crash per shape. */
  readonly key: string;
  readonly message: string;
  readonly stack: string;
}

export type Outcome = { readonly kind: 'ok' | 'expected'; readonly key: string } | { readonly kind: 'crash'; readonly crash: Crash };

/** Words of the sources' own text: what a message template can say (input echoed back is mostly not among them). */
const vocabulary = (() => {
  const words = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.ts')) for (const w of readFileSync(join(dir, e.name), 'utf8').match(/[A-Za-z]{2,}/g) ?? []) words.add(w);
    }
  };
  walk(fileURLToPath(new URL('../../src', import.meta.url)));
  return words;
})();

/**
 * A message's shape: the words of its template, with whatever came from the input (numbers, quoted or
 * unquoted text, file names) folded into `_`.
 */
export function messageShape(message: string): string {
  const line = message.split('\n')[0]!.replace(/'[^]*'|"[^]*"/g, ' _ ');
  const words = line.split(/\s+/).map((w) => {
    const bare = w.replace(/[,.:;()]+$/, '');
    return /^[A-Za-z]{3,}$/.test(bare) && vocabulary.has(bare) ? w : '_';
  });
  // Repeats of one piece of input fold too (`_ th _ th _` is `_`).
  return words.filter((w) => w !== '_').length === 0 ? '_' : words.join(' ').replace(/_( _)+/g, '_').replace(/(_ \S+ )\1+/g, '$1').slice(0, 160);
}

/** Run one input and classify what happened. */
export async function runOne(target: FuzzTarget, input: Uint8Array): Promise<Outcome> {
  try {
    await target.run(input);
    // Successes differ by how much they parsed: a size class keeps a few of them.
    return { kind: 'ok', key: `ok:${Math.min(8, Math.ceil(Math.log2(input.length + 1)))}` };
  } catch (e) {
    if (target.expected(e)) return { kind: 'expected', key: `err:${messageShape(target.echoless?.((e as Error).message) ?? (e as Error).message)}` };
    const err = e instanceof Error ? e : new Error(String(e));
    const top = (err.stack ?? '').split('\n').find((l) => /^\s+at /.test(l))?.trim() ?? '';
    // Crash messages come from the engine (not templates of ours): numbers folded, words kept.
    const shape = err.message.split('\n')[0]!.replace(/\d+/g, 'N').slice(0, 160);
    return { kind: 'crash', crash: { input, key: `${err.name}: ${shape} ${top}`, message: err.message, stack: err.stack ?? '' } };
  }
}

const MAX_CORPUS = 4096;

export interface LoopReport {
  runs: number;
  readonly corpus: Uint8Array[];
  readonly crashes: Map<string, Crash>;
}

export interface LoopOptions {
  readonly seed: number;
  /** Stop after this many inputs … */
  readonly runs?: number;
  /** … or at this time (performance.now()). */
  readonly until?: number;
  /** Called before each input runs (the worker records it for the hang watchdog). */
  readonly before?: (input: Uint8Array) => void;
  /** A new corpus entry or crash shape. */
  readonly onNew?: (kind: 'corpus' | 'crash', input: Uint8Array, crash?: Crash) => void;
  /** Every 4096 inputs. */
  readonly onProgress?: (runs: number) => void;
}

/** Mutational fuzzing from `seedCorpus` until the budget is spent. */
export async function fuzzLoop(target: FuzzTarget, seedCorpus: readonly Uint8Array[], opts: LoopOptions): Promise<LoopReport> {
  const rng = createRng(opts.seed);
  const mutator = new Mutator(rng, target.dictionary);
  const corpus = seedCorpus.length ? [...seedCorpus] : [new Uint8Array(0)];
  const seen = new Set<string>();
  const report: LoopReport = { runs: 0, corpus, crashes: new Map() };
  const consider = (input: Uint8Array, outcome: Outcome) => {
    if (outcome.kind === 'crash') {
      if (!report.crashes.has(outcome.crash.key)) {
        report.crashes.set(outcome.crash.key, outcome.crash);
        opts.onNew?.('crash', input, outcome.crash);
      }
      return;
    }
    if (seen.has(outcome.key)) return;
    seen.add(outcome.key);
    // A bounded corpus: past the cap a new entry takes a random old one's place.
    if (corpus.length < MAX_CORPUS) corpus.push(input);
    else corpus[rng.int(corpus.length)] = input;
    opts.onNew?.('corpus', input);
  };
  for (const input of seedCorpus) consider(input, await runOne(target, input));
  const done = () => (opts.runs !== undefined && report.runs >= opts.runs) || (opts.until !== undefined && (report.runs & 255) === 0 && performance.now() >= opts.until);
  while (!done()) {
    const input = mutator.mutate(corpus[rng.int(corpus.length)]!, corpus);
    opts.before?.(input);
    consider(input, await runOne(target, input));
    report.runs++;
    if ((report.runs & 4095) === 0) opts.onProgress?.(report.runs);
  }
  return report;
}

/** A smaller input with the same crash shape (greedy chunk removal), for the regression corpus. */
export async function minimize(target: FuzzTarget, crash: Crash, maxTries = 2000): Promise<Uint8Array> {
  let best = crash.input;
  let tries = 0;
  for (let chunk = best.length >> 1; chunk >= 1 && tries < maxTries; chunk >>= 1) {
    for (let at = 0; at + chunk <= best.length && tries < maxTries; ) {
      const candidate = new Uint8Array(best.length - chunk);
      candidate.set(best.subarray(0, at));
      candidate.set(best.subarray(at + chunk), at);
      tries++;
      const o = await runOne(target, candidate);
      if (o.kind === 'crash' && o.crash.key === crash.key) best = candidate;
      else at += chunk;
    }
  }
  return best;
}
