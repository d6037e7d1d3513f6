// eDSL diagnostics as the command line prints them: paths relative to where the user is, as compilers print them.
import { relative } from 'node:path';
import { formatDiagnostic, type Diagnostic, type SourceLoc } from '../hdl/index.ts';

export function formatDiagnosticHere(d: Diagnostic): string {
  const here = (loc: SourceLoc) => ({ ...loc, file: relative(process.cwd(), loc.file) || loc.file });
  return formatDiagnostic({ ...d, loc: here(d.loc), notes: d.notes?.map((n) => ({ ...n, loc: n.loc && here(n.loc) })) });
}
