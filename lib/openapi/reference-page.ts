import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { API_VERSIONS, type ApiVersion, LATEST_API_VERSION } from '@/lib/api-versions';

// The /docs page: Scalar's API reference with its bundle served from this origin (nothing from a
// third party), settings in data attributes so the CSP allows scripts from 'self' only.

const PACKAGE_DIR = path.join(process.cwd(), 'node_modules', '@scalar', 'api-reference');
const BUNDLE_FILE = path.join(PACKAGE_DIR, 'dist', 'browser', 'standalone.js');

let version: string | undefined;

/** The installed Scalar version; the bundle's URL carries it so browsers may cache it for a year. */
function scalarVersion(): string {
  version ??= (JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}

const BUNDLE_PATH = '/docs/scalar.js';

/** The bundle as a streamed response: immutable when asked for by this version, briefly cached otherwise. */
export function scalarBundleResponse(requestedVersion: string | null): Response {
  const body = Readable.toWeb(createReadStream(BUNDLE_FILE)) as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': requestedVersion === scalarVersion() ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
    },
  });
}

// What Scalar would otherwise fetch from its own servers: fonts (fonts.scalar.com), the AI agent,
// telemetry. Its API client sends requests to the document's server, this origin.
const CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  defaultOpenAllTags: true,
  metaData: { title: 'ServicePay API reference' },
};

/** Only this origin: Scalar injects its styles at run time, hence inline styles. */
export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const attribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Links to the reference of each API version, the shown one marked (plain links: no script needed). */
function versionLinks(current: ApiVersion): string {
  const links = API_VERSIONS.map((v) =>
    v === current ? `<a href="/docs?version=${v}" aria-current="page"><strong>${v}</strong></a>` : `<a href="/docs?version=${v}">${v}</a>`,
  );
  return `<nav aria-label="API versions" style="font: 14px system-ui, sans-serif; padding: 8px 16px">API version: ${links.join(' · ')}</nav>`;
}

/** The reference page of API version `version`, rendering the document at `documentUrl`. */
export function referencePageHtml(documentUrl: string, version: ApiVersion = LATEST_API_VERSION): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>ServicePay API reference</title>
    <link rel="icon" href="data:," />
    <meta name="description" content="Reference of the ServicePay API: payment links, subscription plans and webhooks." />
  </head>
  <body>
    ${versionLinks(version)}
    <noscript>This reference needs JavaScript. The OpenAPI document itself is at <a href="${attribute(documentUrl)}">${attribute(documentUrl)}</a>.</noscript>
    <script id="api-reference" data-url="${attribute(documentUrl)}" data-configuration="${attribute(JSON.stringify(CONFIGURATION))}"></script>
    <script src="${BUNDLE_PATH}?v=${encodeURIComponent(scalarVersion())}"></script>
  </body>
</html>
`;
}
