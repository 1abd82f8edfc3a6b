// Builds the embeddable script (lib/widget) into public/widget.js, and its types into
// public/widget.d.ts for merchants to copy (docs/checkout.md#embedding). Run before `next build` and `next dev`.
// Fails when the gzipped script reaches the budget: 2 KB (lemon.js is 2.3 kB).
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export const WIDGET_BUDGET_BYTES = 2048;
const OUT = 'public/widget.js';

export async function buildWidget(): Promise<{ raw: number; gzip: number }> {
  const result = await build({
    entryPoints: ['lib/widget/index.ts'],
    bundle: true,
    minify: true,
    format: 'iife',
    // Browsers from 2022 on (dialog, inset, queueMicrotask); nothing to polyfill.
    target: ['chrome100', 'firefox100', 'safari15.4'],
    legalComments: 'none',
    write: false,
  });
  const code = Buffer.from(result.outputFiles[0]!.contents);
  const gzip = gzipSync(code, { level: 9 }).length;
  if (gzip >= WIDGET_BUDGET_BYTES) {
    throw new Error(`public/widget.js is ${gzip} bytes gzipped: the budget is under ${WIDGET_BUDGET_BYTES}`);
  }
  fs.mkdirSync('public', { recursive: true });
  fs.writeFileSync(OUT, code);
  fs.copyFileSync('lib/widget/types.ts', 'public/widget.d.ts');
  return { raw: code.length, gzip };
}

if (process.argv[1]?.endsWith('build-widget.ts')) {
  buildWidget().then(
    ({ raw, gzip }) => console.log(`widget: ${OUT} ${raw} bytes, ${gzip} bytes gzipped (budget < ${WIDGET_BUDGET_BYTES})`),
    (error: Error) => {
      console.error(`widget build failed: ${error.message}`);
      process.exit(1);
    },
  );
}
