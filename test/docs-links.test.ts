import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '@/app/api/openapi.json/operations';
import { API_VERSIONS } from '@/lib/api-versions';
import { buildOpenApiDocument } from '@/lib/openapi/document';

// The repository stands on its own: comments and documents point to docs/ in this repository,
// and every such pointer leads to a page and, when it names one, a heading that exists.

const root = path.resolve(__dirname, '..');
const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|tsx|mjs|md|css|sh)$/.test(f) || f === '.ci/run')
  .filter((f) => fs.existsSync(path.join(root, f)));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(doc: string): Set<string> {
  const text = fs.readFileSync(path.join(root, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

describe('documentation pointers', () => {
  it('cite no document outside the repository', () => {
    const outside = files.filter((f) => f !== 'test/docs-links.test.ts' && /\b(SPEC|DECISIONS) \d|\.\.\/shared\//.test(fs.readFileSync(path.join(root, f), 'utf8')));
    expect(outside).toEqual([]);
  });

  it('name an API version or a docs page, not the internal SPEC, wherever a merchant reads them', () => {
    const published = files.filter((f) => /^(docs\/|packages\/node\/(src|README)|README\.md)/.test(f) || (/^(app|lib|db)\//.test(f) && !/\.test\.tsx?$/.test(f)));
    expect(published.length).toBeGreaterThan(100);
    expect(published.filter((f) => /\bSPEC\b/.test(fs.readFileSync(path.join(root, f), 'utf8')))).toEqual([]);
    const texts = API_VERSIONS.map((version) => JSON.stringify(buildOpenApiDocument({ appUrl: 'https://pay.example.co', checkoutTokenTtlSeconds: 86_400 }, OPERATIONS, version)));
    expect(texts.filter((text) => /\bSPEC\b/.test(text))).toEqual([]);
  });

  it('lead to a docs page and heading that exist', () => {
    const broken: string[] = [];
    let seen = 0;
    for (const f of files) {
      for (const m of fs.readFileSync(path.join(root, f), 'utf8').matchAll(/\bdocs\/([a-z0-9-]+\.md)(#[a-z0-9-]+)?/g)) {
        seen++;
        const doc = `docs/${m[1]}`;
        if (!fs.existsSync(path.join(root, doc))) broken.push(`${f}: ${m[0]} (no such page)`);
        else if (m[2] && !anchorsOf(doc).has(m[2].slice(1))) broken.push(`${f}: ${m[0]} (no such heading)`);
      }
    }
    expect(seen).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });
});
