#!/usr/bin/env node
// The rtgpu command: runs the TypeScript sources directly through tsx (source-mapped stack traces included).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
