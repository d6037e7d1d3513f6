// Assembler diagnostics: AsmError carries every error found (up to a limit), the first one in its fields.

export interface AsmDiagnostic {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units of the line (a tab counts as one). */
  readonly col: number;
  readonly message: string;
}

export const formatDiagnostic = (d: AsmDiagnostic): string => `${d.file}:${d.line}:${d.col}: error: ${d.message}`;

/** Thrown by `assemble`: message = one `file:line:col: error: …` line per error. */
export class AsmError extends Error {
  readonly file: string;
  readonly line: number;
  readonly col: number;

  constructor(
    readonly diagnostics: readonly AsmDiagnostic[],
    /** Errors found beyond the ones listed. */
    readonly omitted = 0,
  ) {
    const lines = diagnostics.map(formatDiagnostic);
    if (omitted) lines.push(`(${omitted} more error${omitted === 1 ? '' : 's'} not shown)`);
    super(lines.join('\n'));
    this.name = 'AsmError';
    const first = diagnostics[0]!;
    this.file = first.file;
    this.line = first.line;
    this.col = first.col;
  }
}

/** An error in one line, thrown inside the assembler and turned into a diagnostic by the caller. */
export class LineError extends Error {
  constructor(
    readonly col: number,
    message: string,
  ) {
    super(message);
    this.name = 'LineError';
  }
}

/** Source text quoted for a message: short, and with control characters escaped. */
export function quote(text: string): string {
  const short = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return `'${short.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029']/g, (c) => (c === "'" ? "\\'" : escapeChar(c)))}'`;
}

function escapeChar(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}
