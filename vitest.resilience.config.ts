import path from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm run test:resilience` (docs/settlement.md): the production server under kill -9, three
// instances on one PostgreSQL and one Redis, and a seeded fuzz run. One file at a time: each
// starts its own servers, and the machine's cores are the limit.
export default defineConfig({
  resolve: { alias: { '@': path.resolve(__dirname) } },
  test: {
    include: ['test/resilience/**/*.resilience.ts'],
    globalSetup: ['test/resilience/global-setup.ts'],
    setupFiles: ['test/setup-env.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
