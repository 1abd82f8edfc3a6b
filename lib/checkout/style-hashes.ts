import { hash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

// The build inlines its CSS into each page (next.config.ts `inlineCss`) without the CSP nonce, so
// the checkout's policy allows those `<style>` elements by hash (docs/checkout.md#hosted-page).

type Manifests = Record<string, { entryCSSFiles?: Record<string, { inlined?: boolean; content?: string }[]> }>;

/** `'sha256-…'` sources for every `<style>` the build in `distDir` can inline, read once per call. */
export function inlineStyleHashes(distDir: string): string[] {
  const appDir = path.join(distDir, 'server', 'app');
  if (!fs.existsSync(appDir)) return [];
  const hashes = new Set<string>();
  for (const file of fs.readdirSync(appDir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('_client-reference-manifest.js')) continue;
    // Our own build output, a script that sets globalThis.__RSC_MANIFEST (Next.js reads it the same way).
    const context: { __RSC_MANIFEST?: Manifests } = {};
    vm.runInNewContext(fs.readFileSync(path.join(appDir, file), 'utf8'), context);
    for (const manifest of Object.values(context.__RSC_MANIFEST ?? {})) {
      for (const files of Object.values(manifest.entryCSSFiles ?? {})) {
        const css = files.filter((f) => f.inlined).map((f) => f.content ?? '').join('');
        if (css) hashes.add(`'sha256-${hash('sha256', css, 'base64')}'`);
      }
    }
  }
  return [...hashes].sort();
}
