// Reading the files `.include` names: relative to the including file, text only, with one-line errors.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** An included file: its name as messages show it, its identity (for cycle checks), and its text. */
export interface IncludedFile {
  readonly file: string;
  readonly id: string;
  readonly source: string;
}

/** Reads `path` as `.include` wrote it in `from`; throws an Error whose message says why it cannot. */
export type IncludeReader = (path: string, from: string) => IncludedFile;

/** A file's identity: its absolute path (names in angle brackets, such as `<stdin>`, are their own). */
export const fileIdentity = (name: string): string => (name.startsWith('<') ? name : resolve(name));

/** From disk: a relative path is relative to the including file's directory (to the working directory for `<stdin>`). */
export const readIncludeFromDisk: IncludeReader = (path, from) => {
  if (!path.trim()) throw new Error('.include needs a file name');
  const file = isAbsolute(path) || from.startsWith('<') ? path : join(dirname(from), path);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? `cannot include ${file}: no such file` : code === 'EISDIR' ? `cannot include ${file}: it is a directory` : `cannot include ${file}: ${(e as Error).message}`);
  }
  if (bytes.includes(0)) throw new Error(`cannot include ${file}: not a text file`);
  return { file, id: fileIdentity(file), source: bytes.toString('utf8') };
};
