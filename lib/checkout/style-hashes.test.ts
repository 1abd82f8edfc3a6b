import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inlineStyleHashes } from './style-hashes';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const dirs: string[] = [];

/** A build folder holding one client reference manifest, written as Next.js writes them. */
function buildWith(route: string, entryCSSFiles: Record<string, { path: string; inlined: boolean; content?: string }[]>): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'style-hashes-'));
  dirs.push(dist);
  const dir = path.join(dist, 'server', 'app', ...route.split('/').filter(Boolean));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'page_client-reference-manifest.js'),
    `globalThis.__RSC_MANIFEST = globalThis.__RSC_MANIFEST || {};\nglobalThis.__RSC_MANIFEST[${JSON.stringify(`${route}/page`)}] = ${JSON.stringify({ entryCSSFiles })};`,
  );
  return dist;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('inlineStyleHashes', () => {
  it('hashes each entry list as the one <style> React writes for it: its inlined files in order', () => {
    const dist = buildWith('/pay/[token]', {
      '[project]/app/layout': [{ path: 'a.css', inlined: true, content: 'body{margin:0}' }],
      '[project]/app/pay/[token]/page': [
        { path: 'a.css', inlined: true, content: 'body{margin:0}' },
        { path: 'b.css', inlined: true, content: '.form{color:red}' },
      ],
    });
    expect(inlineStyleHashes(dist)).toEqual([sha256('body{margin:0}'), sha256('body{margin:0}.form{color:red}')].sort());
  });

  it('leaves out files the build did not inline (they stay stylesheets, allowed by self)', () => {
    const dist = buildWith('/manage/[token]', { '[project]/app/layout': [{ path: 'a.css', inlined: false }] });
    expect(inlineStyleHashes(dist)).toEqual([]);
  });

  it('is empty without a production build', () => {
    expect(inlineStyleHashes(path.join(os.tmpdir(), 'no-such-build'))).toEqual([]);
  });
});
