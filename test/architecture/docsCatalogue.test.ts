// Docs that cannot go stale silently: every diagnostic code is in the guide's error table, every folder of src/ in
// the README's layout, every page under docs/ is linked from the README or another page, and every repository path
// they quote exists.
import { describe, expect, test } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diagnosticCodes } from '../../src/hdl/index.ts';

const root = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The lines of the section of `text` that starts at heading `title`, up to the next heading of its level. */
function section(text: string, title: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l === title);
  if (start < 0) throw new Error(`no heading '${title}'`);
  const level = title.match(/^#+/)![0];
  const end = lines.findIndex((l, i) => i > start && new RegExp(`^${level} `).test(l));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

describe('docs keep up with the code', () => {
  test("every diagnostic code has a row in the guide's error table", () => {
    const table = section(read('docs/hdl-guide.md'), '## Errors');
    const rows = new Set([...table.matchAll(/^\| (.*?) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([A-Za-z]+)`/g)].map((c) => c[1]!)));
    expect(Object.keys(diagnosticCodes).filter((code) => !rows.has(code))).toEqual([]);
  });

  test("every folder of src/ has a row in the README's layout that names its sub-folders", () => {
    const rows = read('README.md').split('\n').filter((l) => l.startsWith('| `src/'));
    const subFolders = (path: string) => readdirSync(join(root, path), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    // src/types/ holds only the ambient declarations of npm packages that ship none.
    const folders = subFolders('src').filter((f) => f !== 'types');
    expect(folders.length).toBeGreaterThan(10);
    const missing = folders.flatMap((folder) => {
      const row = rows.find((l) => l.startsWith(`| \`src/${folder}/\` |`));
      if (!row) return [`src/${folder}/ has no row`];
      return subFolders(`src/${folder}`).filter((sub) => !row.includes(`\`${sub}/\``)).map((sub) => `src/${folder}/'s row does not name \`${sub}/\``);
    });
    expect(missing).toEqual([]);
  });

  test('every page under docs/ is linked from the README or another page', () => {
    const pages = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));
    const texts = new Map([['README.md', read('README.md')], ...pages.map((p) => [`docs/${p}`, read(`docs/${p}`)] as const)]);
    const linked = (page: string) => [...texts].some(([from, text]) => from !== `docs/${page}` && new RegExp(`\\]\\((?:docs/|\\./)?${page.replace('.', '\\.')}(?:#[^)]*)?\\)`).test(text));
    expect(pages.filter((p) => !linked(p))).toEqual([]);
  });

  test('every repository path the README and docs quote exists', () => {
    // Written by the tools when they run, not kept in the repository.
    const generated = new Set(['rtl-out/build/']);
    const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const quoted = pages.flatMap((page) => [...read(page).matchAll(/`((?:src|test|scripts|docs|examples|testbench|rtl-out|bin)\/[A-Za-z0-9_./-]*)`/g)].map((m) => ({ page, path: m[1]!.replace(/[.,:]$/, '') })));
    expect(quoted.length).toBeGreaterThan(100);
    expect(quoted.filter((q) => !generated.has(q.path) && !existsSync(join(root, q.path))).map((q) => `${q.page}: ${q.path}`)).toEqual([]);
  });
});
