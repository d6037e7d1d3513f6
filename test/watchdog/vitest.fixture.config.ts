// The blocked fixture alone, with the watchdog reporter (watchdog.test.ts runs it).
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['test/watchdog/blocked.fixture.ts'], reporters: ['default', './test/watchdogReporter.ts'] } });
