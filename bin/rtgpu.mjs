#!/usr/bin/env node
// The rtgpu command. Installed, it runs the compiled JavaScript in dist/; in a checkout of the repository
// (tsconfig.json beside it), the TypeScript sources through tsx, so that a change needs no build.
import { existsSync } from 'node:fs';

if (existsSync(new URL('../tsconfig.json', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
  // Design files the CLI loads share this loader (src/cli/designFile.ts).
  globalThis[Symbol.for('rtgpu.tsLoader')] = true;
  await import('../src/cli/main.ts');
} else {
  await import('../dist/cli/main.js');
}
