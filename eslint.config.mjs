import { defineConfig, globalIgnores } from 'eslint/config';
import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

// eslint-config-next 16 ships flat configs. core-web-vitals: React, hooks, import, jsx-a11y and
// the Next rules (web-vitals ones as errors). typescript: typescript-eslint's `recommended`
// (the project's own typescript-eslint, not a copy) with unused vars and expressions as
// warnings; `npm run lint` allows no warnings, so they fail it all the same.
export default defineConfig([
  globalIgnores([
    '.next/**',
    '.data/**',
    'db/migrations/**',
    // The embeddable script is built from lib/widget into public/: lint the source, not the bundle.
    'public/**/*.js',
    'public/**/*.d.ts',
    'test-results/**',
    'playwright-report/**',
    'coverage/**',
    'out/**',
    'next-env.d.ts',
    // The SDK's build output (npm pack builds it from packages/node/src).
    'packages/*/dist/**',
  ]),
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    // Playwright fixtures hand their value to the test through a callback named `use`, which the
    // hooks plugin mistakes for React's `use()`. No React renders under e2e/.
    files: ['e2e/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    // API replies go through jsonResponse (lib/api/handler.ts: no-store, and no gzip of a small body).
    files: ['app/**/route.ts', 'lib/api/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'Response', property: 'json', message: 'Use jsonResponse from lib/api/handler.ts.' }],
    },
  },
]);
