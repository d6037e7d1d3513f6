// Builds the package: src/ compiled to dist/ (JavaScript, declarations, source maps) with the files it reads at run time.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });

// Files the code loads next to itself: the built-in kernels (assembly) and the Yosys WebAssembly runner.
for (const path of walk(src)) {
  if (path.endsWith('.s') || path.endsWith('.mjs')) cpSync(path, join(dist, relative(src, path)));
}

// Declarations keep the sources' `.ts` specifiers; consumers resolve the emitted `.js`/`.d.ts` pair.
for (const path of walk(dist)) {
  if (!path.endsWith('.d.ts')) continue;
  const text = readFileSync(path, 'utf8');
  const fixed = text.replace(/(from\s+|import\(\s*)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2');
  if (fixed !== text) writeFileSync(path, fixed);
}
console.log(`build: ${relative(root, dist)}/ written`);
