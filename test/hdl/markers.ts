// Finds the line of a `// @mark:NAME` comment in a test file, so tests can assert reported source lines.
import { readFileSync } from 'node:fs';

export function markerLine(file: string, name: string): number {
  const lines = readFileSync(file, 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes(`// @mark:${name}`));
  if (i < 0) throw new Error(`no marker ${name} in ${file}`);
  return i + 1;
}
