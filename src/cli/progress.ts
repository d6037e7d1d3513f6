// One-line progress on stderr (a status line, and the render's bar): drawn only on a terminal, redrawn at most ~10 times a second, cleared at the end.

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

/** 42 → "42s", 185 → "3m05s", 7300 → "2h01m" */
export function compactDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, '0')}m`;
}

/** One status line redrawn in place: only on a terminal, at most every intervalMs, erased by clear(). */
export class StatusLine {
  private lastDraw = -Infinity;
  private shown = 0;

  constructor(
    private readonly stream: ProgressStream = process.stderr,
    private readonly now: () => number = () => performance.now(),
    private readonly intervalMs = 100,
  ) {}

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  /** Redraw with the text `line()` returns, unless the last redraw was less than intervalMs ago. */
  show(line: () => string): void {
    if (!this.enabled) return;
    const t = this.now();
    if (t - this.lastDraw < this.intervalMs) return;
    this.lastDraw = t;
    const text = line();
    this.stream.write(`\r${text}${' '.repeat(Math.max(0, this.shown - text.length))}`);
    this.shown = text.length;
  }

  /** Erase the line (the cursor is left at the start of the empty line). */
  clear(): void {
    if (this.shown === 0) return;
    this.stream.write(`\r${' '.repeat(this.shown)}\r`);
    this.shown = 0;
  }
}

export class ProgressBar {
  private readonly status: StatusLine;
  /** The first update: the rate (and so the ETA) is measured from it, after the simulator's setup. */
  private first: { t: number; done: number } | undefined;

  constructor(
    private readonly label: string,
    stream: ProgressStream = process.stderr,
    private readonly now: () => number = () => performance.now(),
    intervalMs = 100,
  ) {
    this.status = new StatusLine(stream, now, intervalMs);
  }

  get enabled(): boolean {
    return this.status.enabled;
  }

  /** Redraw with the pixels done so far and the ETA, unless the last redraw was less than intervalMs ago. */
  update(done: number, total: number, cycles: number): void {
    if (!this.enabled) return;
    const t = this.now();
    this.first ??= { t, done };
    const first = this.first;
    this.status.show(() => {
      const frac = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
      const fill = Math.round(frac * BAR);
      // Remaining pixels at the rate since the first update; none until a pixel more is done.
      const rate = (done - first.done) / (t - first.t);
      const eta = done > first.done && t > first.t ? `, ETA ${compactDuration((total - done) / rate / 1000)}` : '';
      return `${this.label} [${'#'.repeat(fill)}${'.'.repeat(BAR - fill)}] ${Math.floor(frac * 100)
        .toString()
        .padStart(3)}% ${done}/${total} pixels, ${compactCount(cycles)} cycles${eta}`;
    });
  }

  /** Erase the bar (the cursor is left at the start of the empty line). */
  clear(): void {
    this.status.clear();
  }
}

/** What the external simulators report while they get ready, for the user: the builds (they take minutes), not cache hits. */
export function buildLog(before: () => void = () => {}, stream: ProgressStream = process.stderr): (line: string) => void {
  return (line) => {
    if (/ from the build cache( \(.*\))?$/.test(line)) return;
    before();
    stream.write(`${line} (cached for the next run)\n`);
  };
}
