// Writes the seed corpus of every fuzz target (test/fuzz/corpus/<target>/) from the project's own
// examples: run `npx tsx test/fuzz/makeCorpus.ts` after a format changes, and commit the result.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assemble } from '../../src/isa/assembler.ts';
import { formatHexWords, wordsToBytes } from '../../src/isa/hexWords.ts';
import { sceneToImage } from '../../src/golden/scene.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { bvhSceneImage } from '../../src/bvh/sceneImage.ts';
import { FLOAT_KERNEL, INTEGER_KERNEL } from '../../src/designs/bench/coreCpi.ts';
import { cliCommands } from './cliFlags.ts';

const root = fileURLToPath(new URL('./corpus/', import.meta.url));
const kernel = (name: string) => readFileSync(fileURLToPath(new URL(`../../src/host/kernels/${name}`, import.meta.url)), 'utf8');
const put = (target: string, name: string, data: string | Uint8Array) => {
  mkdirSync(join(root, target), { recursive: true });
  writeFileSync(join(root, target, name), data);
};

const shade = assemble(kernel('shade.s'), 'shade.s').words;
put('asm', 'shade.s', kernel('shade.s'));
put('asm', 'id.s', kernel('id.s'));
put('asm', 'integer.s', INTEGER_KERNEL);
put('asm', 'float.s', FLOAT_KERNEL);
put('asm', 'directives.s', 'data: .word 0xdeadbeef, -1\n .byte 1 2 3\n .space 5\n .string "a\\tb\\x41"\nlab: s_push R1\n s_pop R1\n jmp_link lab\n ii_mod R1, R2, R3\n @ 0x10 ignored\n fin\n');
put('disasm', 'shade.bin', wordsToBytes(shade));
put('hex', 'shade.hex', formatHexWords(shade));
put('hex', 'comments.hex', '// words\ndeadbeef 00000001 # two\n\n0000ffff\n');
put('bin', 'shade.bin', wordsToBytes(shade));
const scene = defaultScene();
put('triangles', 'cornell.bin', wordsToBytes(sceneToImage(scene)));
// A small scene keeps the BVH image short (mutations reach every section).
const small = { ...scene, triangles: scene.triangles.slice(0, 4 * 6) };
put('bvh-image', 'cornell6.bin', wordsToBytes(bvhSceneImage(small).image));
put('obj', 'quad.obj', '# a quad\nmtllib quad.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nvt 0 0\nusemtl red\nf 1/1/1 2/1/1 3/1/1 4/1/1\no tri\nusemtl white\nf -1 -2 -3\n');
put('mtl', 'quad.mtl', 'newmtl red\nKd 0.8 0.1 0.1\nKs 0.2 0.2 0.2\nNs 10\nnewmtl white\nKd 0.9 0.9 0.9\nnewmtl lamp\nKe 4 4 4\n');
put('fp-operands', 'add.txt', '3f800000 40000000\n# comment\n0x7f800000 ff800000\n00000001 80000001\n');
put('design-params', 'params.txt', 'width=8\ndepth=0x10\nscale=0.5\nsigned=true\ntaps=[1,2,3]\nopts={"a":1}\nname=fifo');

// cli-flags: the command lines of the README, the docs and the CLI tests that parse and have no
// placeholders (`<design>`, `[FILE]`; `--cycles N` does not parse), one argv word per line.
const repo = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const names = Object.keys(cliCommands).join('|');
const shellWords = (line: string) => [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
const lines = new Set<string>();
for (const doc of ['README.md', ...readdirSync(repo('docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)])
  for (const m of readFileSync(repo(doc), 'utf8').matchAll(new RegExp(`\\brtgpu ((?:${names})\\b[^\`\\n|>;&#]*)`, 'g'))) lines.add(shellWords(m[1]!.trim()).join('\n'));
for (const test of readdirSync(repo('test/cli')).filter((f) => f.endsWith('.ts'))) {
  const src = readFileSync(repo(`test/cli/${test}`), 'utf8');
  const literals = (list: string) => [...list.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
  for (const m of src.matchAll(/\brtgpu\(((?:\s*'[^']*',?)+)\s*\)/g)) lines.add(literals(m[1]!).join('\n'));
  for (const m of src.matchAll(new RegExp(`\\b(${names})Command\\.run\\(\\[((?:\\s*'[^']*',?)*)\\s*\\]`, 'g'))) lines.add([m[1]!, ...literals(m[2]!)].join('\n'));
}
let valid = 0;
for (const line of [...lines].sort()) {
  const [name, ...argv] = line.split('\n');
  if (argv.some((w) => /^[<[]/.test(w))) continue;
  try {
    cliCommands[name!]!.parse(argv);
  } catch {
    continue;
  }
  put('cli-flags', `${name}-${String(valid++).padStart(3, '0')}.txt`, line);
}

// design-file: the design files of the CLI tests and the examples that stand alone (not testbenches);
// without their .ts, which would make tsc check them.
for (const f of ['gcdUnit.ts', 'twoModules.ts', 'unusedInput.ts', 'widthError.ts', 'throwsAtLoad.ts']) put('design-file', f.replace(/\.ts$/, ''), readFileSync(repo(`test/cli/fixtures/${f}`)));
for (const ex of readdirSync(repo('examples'), { withFileTypes: true }).filter((d) => d.isDirectory()))
  for (const f of readdirSync(repo(`examples/${ex.name}`)).filter((n) => n.endsWith('.ts') && !n.includes('.tb.'))) {
    const text = readFileSync(repo(`examples/${ex.name}/${f}`), 'utf8');
    // Alone in a temporary directory, a file that imports its neighbours cannot load.
    if (!/from '\.\.?\//.test(text)) put('design-file', `${ex.name}-${f.replace(/\.ts$/, '')}`, text);
  }
console.log(`corpus written to ${root}`);
