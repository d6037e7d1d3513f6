// A one-line progress bar on stderr: drawn only on a terminal, redrawn at most ~10 times a second, cleared at the end.

/** The part of a stream the bar uses (process.stderr, or a fake in tests). */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

const BAR = 24;

/** 1234567 → "1.23M" */
export function compactCount(n: number): string {
  if (n < 1e3) return String(Math.round(n));
  const [d, unit] = n < 1e6 ? [1e3, 'k'] : n < 1e9 ? [1e6, 'M'] : [1e9, 'G'];
  return `${(n / d).toPrecision(3)}${unit}`;
}

export class ProgressBar {
  private lastDraw = -Infinity;
  private shown = 0;

  constructor(
    private readonly label: string,
    private readonly stream: ProgressStream = process.stderr,
    private readonly now: () => number = () => performance.now(),
    private readonly intervalMs = 100,
  ) {}

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  /** Redraw with the pixels done so far, unless the last redraw was less than intervalMs ago. */
  update(done: number, total: number, cycles: number): void {
    if (!this.enabled) return;
    const t = this.now();
    if (t - this.lastDraw < this.intervalMs) return;
    this.lastDraw = t;
    const frac = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
    const fill = Math.round(frac * BAR);
    const line = `${this.label} [${'#'.repeat(fill)}${'.'.repeat(BAR - fill)}] ${Math.floor(frac * 100)
      .toString()
      .padStart(3)}% ${done}/${total} pixels, ${compactCount(cycles)} cycles`;
    this.stream.write(`\r${line}${' '.repeat(Math.max(0, this.shown - line.length))}`);
    this.shown = line.length;
  }

  /** Erase the bar (the cursor is left at the start of the empty line). */
  clear(): void {
    if (this.shown === 0) return;
    this.stream.write(`\r${' '.repeat(this.shown)}\r`);
    this.shown = 0;
  }
}
