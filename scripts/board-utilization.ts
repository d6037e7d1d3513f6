// Synthesizes every board preset's GPU with Yosys, one board after another, prints the utilization table and
// fails if a board passes the limit; --write stores the figures (src/designs/synth/boardFigures.ts) for rtl-out's README.
// Usage: npm run boards -- [--only NAMES] [--write]   (minutes of Yosys per board)
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BOARD_UTILIZATION_LIMIT, boardPreset, boardPresets, UnknownBoardError } from '../src/designs/synth/boards.ts';
import { boardFigures, type BoardFigures } from '../src/designs/synth/boardFigures.ts';
import { boardTable, measureBoard, overLimit } from '../src/designs/synth/boardUtilization.ts';
import { YosysError, YosysUnavailableError } from '../src/hdl/synth/index.ts';

function options() {
  try {
    return parseArgs({ options: { only: { type: 'string' }, write: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (e) {
    console.error(`boards: ${(e as Error).message}`);
    process.exit(2);
  }
}

const values = options();
if (values.help) {
  console.log(`usage: npm run boards -- [--only ${boardPresets.map((b) => b.name).join(',')}] [--write]`);
  process.exit(0);
}
let boards = boardPresets;
try {
  if (values.only) boards = values.only.split(',').map((s) => boardPreset(s.trim()));
} catch (e) {
  if (!(e instanceof UnknownBoardError)) throw e;
  console.error(`boards: ${e.message}`);
  process.exit(2);
}

const measured: Record<string, BoardFigures['boards'][string]> = { ...boardFigures.boards };
let yosys = boardFigures.yosys;
const over: string[] = [];
const failed: string[] = [];
for (const b of boards) {
  console.log(`${b.name}: Yosys ${b.device} ...`);
  let m;
  try {
    m = await measureBoard(b);
  } catch (e) {
    if (!(e instanceof YosysError || e instanceof YosysUnavailableError)) throw e;
    console.error(`${b.name}: ${e.message}`);
    failed.push(b.name);
    continue;
  }
  yosys = m.yosys;
  measured[b.name] = { ...m.use, seconds: m.seconds };
  const o = overLimit(b, m.use);
  console.log(`${b.name}: ${m.seconds} s, ${JSON.stringify(m.use)}${o.length ? `, over ${100 * BOARD_UTILIZATION_LIMIT} %: ${o.join(', ')}` : ''}`);
  if (o.length) over.push(`${b.name} (${o.join(', ')})`);
}
if (failed.length) {
  // Figures from two runs of different sources are not stored together.
  console.error(`\nboards: Yosys failed on ${failed.join(', ')}; nothing written`);
  process.exit(1);
}
const figures: BoardFigures = { yosys, date: new Date().toISOString().slice(0, 10), boards: measured };
console.log(`\n${boardTable(boards, figures)}`);
if (values.write) {
  const file = new URL('../src/designs/synth/boardFigures.ts', import.meta.url);
  const text = readFileSync(file, 'utf8');
  const head = text.slice(0, text.indexOf('export const boardFigures'));
  writeFileSync(file, `${head}export const boardFigures: BoardFigures = ${JSON.stringify(figures, null, 2)};\n`);
  console.log(`\nwrote ${file.pathname}`);
}
if (over.length) {
  console.error(`\nboards over ${100 * BOARD_UTILIZATION_LIMIT} %: ${over.join('; ')}`);
  process.exit(1);
}
