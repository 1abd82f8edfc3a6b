import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // @servicepay/node is the SDK's source (packages/node), as tsconfig.json's paths say: the
  // README's receiver example imports it by its package name.
  resolve: { alias: { '@servicepay/node': path.resolve(__dirname, 'packages/node/src/index.ts'), '@': path.resolve(__dirname) } },
  test: {
    include: ['{lib,db,app,scripts,test,bench,docs,packages}/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup-env.ts'],
    // Logs of passing tests are noise; a failing test shows its own.
    silent: 'passed-only',
    // Two files at a time (Vitest's default on two cores is one): most of a file's time goes to
    // importing and to waiting on PostgreSQL, servers and timers. Each file has a database of its
    // own (test/database.ts) and every server it starts listens on a port the system picks.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
