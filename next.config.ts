import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { NextConfig } from 'next';

/**
 * The content hash of the widget `npm run build:widget` made just before (undefined if it has not
 * run), sent with it so a merchant or a support ticket can tell which build a page loaded.
 */
function widgetVersion(): string | undefined {
  const file = 'public/widget.js';
  return fs.existsSync(file) ? createHash('sha256').update(fs.readFileSync(file)).digest('hex').slice(0, 16) : undefined;
}

// The widget's address has no version in it (merchants paste one script tag), so the cache
// lifetime is a day, not a year: long enough that a returning customer loads nothing, short
// enough that a fix reaches every merchant's page within one; stale-while-revalidate keeps it
// instant meanwhile, and the ETag makes the revalidation a 304.
const WIDGET_CACHE = 'public, max-age=86400, stale-while-revalidate=604800';

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // PGlite loads its WebAssembly and data files from its own package folder at run time, and
  // pdfkit its standard fonts' metrics (receipts, lib/receipts/pdf.ts).
  serverExternalPackages: ['@electric-sql/pglite', 'pdfkit'],
  // `forbidden()`: the portal answers another merchant's plan or event with a 403 page.
  // `inlineCss`: the CSS comes in the HTML, so the checkout paints without waiting for a stylesheet;
  // its policy allows the `<style>` by hash (docs/checkout.md#hosted-page, proxy.ts).
  experimental: { authInterrupts: true, inlineCss: true },
  async headers() {
    const version = widgetVersion();
    // Any merchant page may load the script (and a bundler may fetch the types).
    const widgetHeaders = [
      { key: 'Cache-Control', value: WIDGET_CACHE },
      { key: 'Access-Control-Allow-Origin', value: '*' },
    ];
    // X-Content-Type-Options: nosniff goes on every response from lib/http/request-guard.ts: a
    // rule for every path here would be matched on every request (docs/benchmarks.md).
    return [
      { source: '/widget.js', headers: [...widgetHeaders, ...(version ? [{ key: 'X-Widget-Version', value: version }] : [])] },
      // Text to copy, not a video (the static server reads .ts as MPEG transport stream).
      { source: '/widget.d.ts', headers: [...widgetHeaders, { key: 'Content-Type', value: 'text/plain; charset=utf-8' }] },
    ];
  },
};

export default nextConfig;
