// Runs @yowasp/yosys (path in argv[2]) like a native yosys: on the working directory's files, written back when it ends.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [bundle, ...args] = process.argv.slice(2);
const { runYosys, Exit } = await import(pathToFileURL(bundle).href);

/** The directory as the in-memory tree the WebAssembly file system mounts as its working directory. */
function readTree(dir) {
  const tree = {};
  for (const e of readdirSync(dir, { withFileTypes: true })) tree[e.name] = e.isDirectory() ? readTree(join(dir, e.name)) : readFileSync(join(dir, e.name));
  return tree;
}

function writeTree(dir, tree) {
  for (const [name, v] of Object.entries(tree)) {
    const path = join(dir, name);
    if (typeof v === 'string' || v instanceof Uint8Array) writeFileSync(path, v);
    else {
      mkdirSync(path, { recursive: true });
      writeTree(path, v);
    }
  }
}

const write = (stream) => (bytes) => bytes && stream.write(bytes);
let files;
try {
  files = await runYosys(args, readTree('.'), { stdout: write(process.stdout), stderr: write(process.stderr) });
} catch (e) {
  if (!(e instanceof Exit)) throw e;
  files = e.files;
  process.exitCode = e.code;
}
if (files) writeTree('.', files);
