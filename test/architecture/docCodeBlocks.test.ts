// The TypeScript blocks of README.md, docs/ and examples/: every whole file type-checks (and passes the JavaScript-operator check) as users would compile it; fragments at least parse.
//
// A block is ```ts: a whole file, checked with its imports (`rtgpu/...` resolves to this checkout). Blocks
// of one document that import each other say their name: ```ts file=counter.ts. A block that shows part
// of a file (a module body, a call) says so: ```ts fragment, and is only parsed (`…` marks what it leaves out).
import { describe, expect, test } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execa } from 'execa';
import { basename, join, resolve } from 'node:path';
import ts from 'typescript';
import { checkSources } from '../../src/hdl/tools/index.ts';

interface Block {
  readonly doc: string;
  readonly line: number;
  readonly file?: string;
  readonly fragment: boolean;
  readonly text: string;
}

const docs = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), ...readdirSync('examples', { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `examples/${e.name}/README.md`)].filter((f) => {
  try {
    readFileSync(f);
    return true;
  } catch {
    return false;
  }
});

function blocksOf(doc: string): Block[] {
  const text = readFileSync(doc, 'utf8');
  const out: Block[] = [];
  for (const m of text.matchAll(/^```(?:ts|typescript)([^\n]*)\n([\s\S]*?)^```/gm)) {
    const info = m[1]!.trim().split(/\s+/).filter(Boolean);
    const file = info.find((w) => w.startsWith('file='))?.slice(5);
    const unknown = info.filter((w) => w !== 'fragment' && !w.startsWith('file='));
    if (unknown.length) throw new Error(`${doc}:${text.slice(0, m.index).split('\n').length}: unknown code block tag ${unknown.join(' ')} (fragment, file=NAME)`);
    out.push({ doc, line: text.slice(0, m.index).split('\n').length, file, fragment: info.includes('fragment'), text: m[2]! });
  }
  return out;
}

const all = docs.flatMap(blocksOf);

describe('TypeScript code blocks of the documentation', () => {
  test('there are blocks to check, whole files among them', () => {
    expect(all.length).toBeGreaterThan(15);
    expect(all.filter((b) => !b.fragment).length).toBeGreaterThan(5);
  });

  test('every fragment parses', () => {
    const broken = all
      .filter((b) => b.fragment)
      .flatMap((b) => {
        // A module body or an expression: parsed as the statements of a function, where `await` is allowed;
        // `…` stands for what the fragment leaves out.
        const body = b.text.replaceAll('…', '/*…*/');
        const sf = ts.createSourceFile('block.ts', `async function fragment() {\n${body}\n}`, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
        const diags = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
        return diags.map((d) => `${b.doc}:${b.line + sf.getLineAndCharacterOfPosition(d.start ?? 0).line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
      });
    expect(broken).toEqual([]);
  });

  test('every whole file type-checks and passes the JavaScript-operator check', () => {
    // Inside the checkout (so that rtgpu/... resolves and files are ES modules), one folder per document.
    const root = resolve('.cache', `doc-blocks-${process.pid}`);
    rmSync(root, { recursive: true, force: true });
    try {
      const problems: string[] = [];
      const files: { path: string; block: Block }[] = [];
      for (const b of all.filter((x) => !x.fragment)) {
        const dir = join(root, b.doc.replace(/[/.]/g, '_'));
        mkdirSync(dir, { recursive: true });
        const path = join(dir, b.file ?? `block_${b.line}.ts`);
        writeFileSync(path, b.text);
        files.push({ path, block: b });
      }
      for (const { path, block } of files) {
        for (const p of checkSources([path])) problems.push(`${block.doc}:${block.line + p.line} (${basename(p.file)}): ${p.message}`);
      }
      expect(problems).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 300_000);

  test('every SystemVerilog listing is what rtgpu emit prints for its design block (… marks lines left out)', async () => {
    const listings = docs.flatMap((doc) => {
      const text = readFileSync(doc, 'utf8');
      return [...text.matchAll(/^```systemverilog from=(\S+)\n([\s\S]*?)^```/gm)].map((m) => ({ doc, line: text.slice(0, m.index).split('\n').length, from: m[1]!, shown: m[2]! }));
    });
    expect(listings.length).toBeGreaterThanOrEqual(2);
    const root = resolve('.cache', `doc-listings-${process.pid}`);
    try {
      for (const l of listings) {
        const dir = join(root, l.doc.replace(/[/.]/g, '_'));
        mkdirSync(dir, { recursive: true });
        for (const b of all.filter((x) => x.doc === l.doc && x.file)) writeFileSync(join(dir, b.file!), b.text);
        const r = await execa(process.execPath, ['bin/rtgpu.mjs', 'emit', join(dir, l.from), '--out', join(dir, 'rtl'), '--force', '--no-typecheck'], { reject: false });
        expect(r.exitCode, `${l.doc}:${l.line}: ${r.stderr}`).toBe(0);
        const module = /^module (\w+)/m.exec(l.shown)![1]!;
        const emitted = readFileSync(join(dir, 'rtl', `${module}.sv`), 'utf8');
        const problem = listingDifference(l.shown, emitted);
        expect(problem, `${l.doc}:${l.line}: the listing of ${module} is not what is emitted`).toBeNull();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 300_000);
});

/**
 * Null when `shown` is `emitted` with some lines left out where it says `…` (each stretch between two
 * `…` appears whole, in order); location comments count only if the listing shows them.
 */
function listingDifference(shown: string, emitted: string): string | null {
  const withComments = / \/\/ [\w.]+\.ts:\d+$/m.test(shown);
  const norm = (t: string) => t.split('\n').map((l) => (withComments ? l : l.replace(/ \/\/ [\w.]+\.ts:\d+$/, '')).trimEnd());
  const lines = norm(emitted);
  const chunks: string[][] = [[]];
  for (const l of norm(shown.trimEnd())) if (l.trim() === '…') chunks.push([]); else chunks.at(-1)!.push(l);
  let at = 0;
  for (const chunk of chunks.filter((c) => c.length)) {
    let found = -1;
    for (let i = at; i + chunk.length <= lines.length && found < 0; i++) if (chunk.every((l, k) => lines[i + k] === l)) found = i;
    if (found < 0) return `not found in order:\n${chunk.join('\n')}\n\nemitted:\n${lines.join('\n')}`;
    at = found + chunk.length;
  }
  return null;
}
