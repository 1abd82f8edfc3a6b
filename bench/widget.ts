// npm run bench:widget: the embeddable script's gzip size, and the time from `ServicePay.open()`
// to an interactive card form in Chromium, on a merchant page served from a second local origin.
// `next start` (production build) on an embedded database in a temporary directory. With
// BENCH_BASELINE_DIR (another checkout with its own production build, e.g. main's) both builds are
// measured in the same run, their opens interleaved, so a busy machine weighs on both alike.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { median, writeSection } from './report';
import { ensureBuild, type RunningServer, startServer } from './setup';

const PORT = Number(process.env.BENCH_PORT ?? 3379);
const SITE_PORT = Number(process.env.BENCH_SITE_PORT ?? 3380);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const BASELINE_DIR = process.env.BENCH_BASELINE_DIR;
const BASELINE_PORT = Number(process.env.BENCH_BASELINE_PORT ?? PORT + 2);
const ADMIN = 'bench-admin-token-0123456789abcdef';
const HEADING = '## Widget (npm run bench:widget)';

/** The section's note: what the last change to the checkout's load was. */
const WHAT_CHANGED =
  "The 2026-11-25 change: the build inlines its CSS into the page's HTML (Next.js `experimental.inlineCss`), allowed by the checkout's policy through a `'sha256-…'` source per inlined `<style>` (lib/checkout/style-hashes.ts), since Next.js writes it without the nonce: the checkout paints and its bridge posts the first message without waiting for two stylesheets.";

interface Timing {
  /**
   * open() until the first animation frame of the merchant's page after the checkout's first
   * message: the widget has swapped its loading text for the frame, and that frame is painted.
   */
  shown: number;
  /**
   * open() until the form is usable: shown, and an animation frame of the checkout's own document
   * has run with the card inputs and an enabled pay button in it, so they are painted. The form
   * works before hydration (a plain POST,
   * docs/checkout.md), so this is when a customer can pay.
   */
  usable: number;
  /**
   * From the first byte of the checkout's HTML to usable: the part of an open the page itself
   * decides, without the server's answer time, which a machine shared with other work makes noisy.
   */
  afterFirstByte: number;
  /** open() until an animation frame of the checkout's document saw React's props on the card number input. */
  interactive: number;
  /** The form as Playwright's waitForFunction polled it from outside until this bench's previous version ("usable" then). */
  polled: number;
}

/**
 * Runs in every document of the browser context from its start (Playwright's init script, a
 * string so no bundler helper leaks in): in the checkout it checks every animation frame, with
 * the document's own clock, for the usable form and for React's props on the card input.
 * Measured from outside instead, the checks start only once Playwright has set itself up in the
 * new frame, which in the runs traced came after the page's JavaScript had run: that made
 * "usable" read as "hydrated" (docs/benchmarks.md).
 */
const FRAME_PROBE = `(function () {
  if (!/^\\/pay\\//.test(location.pathname)) return;
  var seen = (window.__servicepayProbe = {});
  function now() { return performance.timeOrigin + performance.now(); }
  function tick() {
    var input = document.getElementById('cardNumber');
    var button = document.querySelector('form button[type="submit"]');
    var nav = performance.getEntriesByType('navigation')[0];
    if (!seen.firstByte && nav) seen.firstByte = performance.timeOrigin + nav.responseStart;
    if (!seen.usable && input && button && !button.disabled) seen.usable = now();
    if (!seen.hydrated && input && Object.keys(input).some(function (k) { return k.indexOf('__reactProps') === 0; })) seen.hydrated = now();
    if (!seen.hydrated) requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
})();`;

async function createLink(app: string, site: string): Promise<string> {
  const admin = { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' };
  const merchant = await (
    await fetch(`${app}/admin/merchants`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Bench', allowedDomains: [site] }) })
  ).json();
  const res = await fetch(`${app}/merchants/subscription-link`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${merchant.apiKey}:${merchant.apiSecret}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana' },
      plan: { externalReference: `bench-${Date.now()}`, description: 'Plan Gimnasio', amount: 150000 },
    }),
  });
  if (res.status !== 200) throw new Error(`link creation answered ${res.status}`);
  return (await res.json()).token;
}

function merchantPage(app: string, token: string): string {
  return `<!doctype html><html lang="es-CO"><head><meta charset="utf-8"><title>Tienda</title></head><body>
<button id="pay">Pagar</button><script src="${app}/widget.js"></script>
<script>
addEventListener('message', function (e) {
  if (!e.data || e.data.type !== 'servicepay:checkout' || window.messageAt) return;
  window.messageAt = performance.timeOrigin + performance.now();
  requestAnimationFrame(function () { window.shownAt = performance.timeOrigin + performance.now(); });
});
window.openCheckout = function () { var t = performance.timeOrigin + performance.now(); ServicePay.open({ token: ${JSON.stringify(token)} }); return t; };
</script></body></html>`;
}

/** One open: click-to-usable measured with the clocks of the two documents (both epoch-based). */
async function measure(page: Page, siteUrl: string): Promise<Timing> {
  await page.goto(siteUrl);
  await page.waitForFunction(() => 'ServicePay' in window);
  const openedAt = await page.evaluate(() => (window as unknown as { openCheckout: () => number }).openCheckout());
  const frame = await (await page.waitForSelector('dialog iframe')).contentFrame();
  const polledAt = await (
    await frame!.waitForFunction(
      () => {
        const button = document.querySelector('form button[type="submit"]') as HTMLButtonElement | null;
        return document.getElementById('cardNumber') && button && !button.disabled ? performance.timeOrigin + performance.now() : false;
      },
      null,
      { polling: 'raf', timeout: 30_000 },
    )
  ).jsonValue();
  type Seen = { usable?: number; hydrated?: number; firstByte?: number };
  const probe = (await (
    await frame!.waitForFunction(
      () => {
        const seen = (window as unknown as { __servicepayProbe?: Seen }).__servicepayProbe;
        return seen?.usable && seen.hydrated ? seen : false;
      },
      null,
      { timeout: 30_000 },
    )
  ).jsonValue()) as Required<Seen>;
  const shownAt = (await (await page.waitForFunction(() => (window as unknown as { shownAt?: number }).shownAt, null, { timeout: 30_000 })).jsonValue()) as number;
  return {
    shown: shownAt - openedAt,
    usable: Math.max(shownAt, probe.usable) - openedAt,
    afterFirstByte: Math.max(shownAt, probe.usable) - probe.firstByte,
    interactive: probe.hydrated - openedAt,
    polled: Math.max(shownAt, polledAt as number) - openedAt,
  };
}

/** First-load JavaScript of the checkout page: every script it loads (module browsers skip noModule ones), gzipped at level 9; and its HTML. */
async function firstLoadJs(app: string, token: string) {
  const html = await (await fetch(`${app}/pay/${token}`)).text();
  const page = { raw: Buffer.byteLength(html), gzip: gzipSync(html, { level: 9 }).length };
  const tags = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>/g)];
  let raw = 0;
  let gzip = 0;
  let scripts = 0;
  for (const [tag, src] of tags) {
    if (/\bnoModule\b|\bnomodule\b/.test(tag)) continue;
    const body = Buffer.from(await (await fetch(new URL(src!.replace(/&amp;/g, '&'), app))).arrayBuffer());
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
    scripts += 1;
  }
  return { scripts, raw, gzip, page };
}

interface Build {
  label: string;
  app: string;
  token: string;
  server: RunningServer;
}

function serverEnv(dataDir: string, app: string): Record<string, string> {
  return { PGLITE_DATA_DIR: path.join(dataDir, 'pglite'), APP_URL: app, ADMIN_API_TOKEN: ADMIN, NODE_ENV: 'production', SANDBOX_DEPLOYMENT: '1', BETTER_AUTH_SECRET: 'bench-only-auth-secret-0123456789abcdef', NEXT_TELEMETRY_DISABLED: '1' };
}

async function startBuild(label: string, port: number, dataDir: string, appDir?: string): Promise<Omit<Build, 'token'>> {
  const app = `http://127.0.0.1:${port}`;
  const server = await startServer('next', { port, appDir, env: serverEnv(path.join(dataDir, String(port)), app) });
  return { label, app, server };
}

async function main() {
  const started = Date.now();
  ensureBuild();
  if (BASELINE_DIR && !fs.existsSync(path.join(BASELINE_DIR, '.next/BUILD_ID'))) throw new Error(`BENCH_BASELINE_DIR has no production build: run npm run build in ${BASELINE_DIR}`);
  const widget = fs.readFileSync('public/widget.js');
  const gzip = gzipSync(widget, { level: 9 }).length;
  const load = os.loadavg()[0]!;

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'servicepay-bench-widget-'));
  const launched = [await startBuild('this build', PORT, dataDir)];
  if (BASELINE_DIR) launched.unshift(await startBuild(`baseline (${path.basename(path.resolve(BASELINE_DIR))})`, BASELINE_PORT, dataDir, BASELINE_DIR));
  const site = http.createServer();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const builds: Build[] = [];
    for (const build of launched) builds.push({ ...build, token: await createLink(build.app, `127.0.0.1:${SITE_PORT}`) });
    // The merchant's page for build i at /?build=i.
    site.on('request', (req, res) => {
      const build = builds[Number(new URL(req.url ?? '/', 'http://x').searchParams.get('build') ?? 0)] ?? builds[0]!;
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(merchantPage(build.app, build.token));
    });
    await new Promise<void>((resolve) => site.listen(SITE_PORT, '127.0.0.1', resolve));
    const siteUrl = (i: number) => `http://127.0.0.1:${SITE_PORT}/?build=${i}`;

    const scenarios: { name: string; cpu: number; cold: boolean }[] = [
      { name: 'desktop, cold cache', cpu: 1, cold: true },
      { name: 'desktop, warm cache', cpu: 1, cold: false },
      { name: '4× slower CPU, cold cache', cpu: 4, cold: true },
    ];
    const results: { name: string; build: string; runs: Timing[] }[] = [];
    for (const scenario of scenarios) {
      const runs: Timing[][] = builds.map(() => []);
      const warm = scenario.cold ? null : await Promise.all(builds.map(() => browser.newContext()));
      for (const [b, context] of (warm ?? []).entries()) {
        await context.addInitScript({ content: FRAME_PROBE });
        await measure(await context.newPage(), siteUrl(b)); // fills the cache; not counted
      }
      for (let i = 0; i < RUNS; i++) {
        // Interleaved, each build first in turn.
        const order = builds.map((_, b) => (b + i) % builds.length);
        for (const b of order) {
          let context = warm?.[b];
          if (!context) {
            context = await browser.newContext();
            await context.addInitScript({ content: FRAME_PROBE });
          }
          const page = await context.newPage();
          if (scenario.cpu > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: scenario.cpu });
          runs[b]!.push(await measure(page, siteUrl(b)));
          await page.close();
          if (!warm) await context.close();
        }
      }
      await Promise.all((warm ?? []).map((context) => context.close()));
      for (const [b, build] of builds.entries()) {
        results.push({ name: scenario.name, build: build.label, runs: runs[b]! });
        console.log(`${scenario.name}, ${build.label}: ${runs[b]!.map((r) => Math.round(r.usable)).join(', ')} ms to usable, ${runs[b]!.map((r) => Math.round(r.afterFirstByte)).join(', ')} ms of them after the first byte, ${runs[b]!.map((r) => Math.round(r.interactive)).join(', ')} ms to hydrated`);
      }
    }

    const js = await Promise.all(builds.map((build) => firstLoadJs(build.app, build.token)));
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
    const ms = (x: number) => `${Math.round(x)} ms`;
    const med = (runs: Timing[], key: keyof Timing) => median(runs.map((t) => t[key]));
    const jsLine = (i: number) => `${builds[i]!.label}: ${js[i]!.scripts} scripts, **${kib(js[i]!.gzip)} gzip** (${kib(js[i]!.raw)} raw)`;
    const coldUsable = results.filter((r) => r.name === scenarios[0]!.name).map((r) => `${r.build} ${ms(med(r.runs, 'usable'))} (${ms(med(r.runs, 'afterFirstByte'))} after the first byte)`);
    writeSection(
      [
        `Taken ${new Date().toISOString()} by \`${BASELINE_DIR ? 'BENCH_BASELINE_DIR=… ' : ''}npm run bench:widget\` in ${Math.round((Date.now() - started) / 1000)} s on this ${os.cpus().length}-core machine (browser and servers share it), load average ${load.toFixed(1)} at the start${load > os.cpus().length ? ': a busy machine, so compare the rows of one run, not runs' : ''}.`,
        '',
        `- Script: \`public/widget.js\` as \`npm run build:widget\` makes it (esbuild, minified): **${gzip} bytes gzipped** (level 9), ${widget.length} bytes raw; the build fails at 2048 (lemon.js is 2.3 kB).`,
        `- Time to a usable form: Chromium ${browser.version()} (headless), a merchant page on a second local origin loading \`/widget.js\`; from \`ServicePay.open()\` (called as a click handler would). "Shown" is until the merchant page's first animation frame after the checkout's first message, when the widget has swapped its loading text for the form. **"Usable"** is until, shown, an animation frame of the checkout's own document has run with the card inputs and an enabled pay button, so they are painted: the card form works before (and without) JavaScript, as a plain POST the server handles (docs/checkout.md), so a customer can pay from then on. "Hydrated" is until a frame of the checkout saw React attached to the card number input (typing is formatted as it goes, errors shown in place). "After first byte" is usable counted from the first byte of the checkout's HTML instead of from open(), leaving out the server's answer time. The checkout's frames are checked from inside its document (a Playwright init script); "as polled before" is the same check made by Playwright's waitForFunction from outside, as this bench did until 2026-11-24: it starts checking only once Playwright has set itself up in the new frame, which in the runs traced came after the page's JavaScript had run, so it read as "hydrated". \`next start\` (production build, embedded database) on 127.0.0.1, no network throttling. ${RUNS} runs per row; a cold run is a fresh browser context (empty cache), a warm one reuses it.${builds.length > 1 ? ' The two builds run side by side, their opens interleaved (each first in turn), one server each.' : ''} Medians. Aim: usable ≤ 400 ms cold on desktop.`,
        `- First-load JavaScript of \`/pay/[token]\`: ${builds.map((_, i) => jsLine(i)).join('; ')}. Every \`<script src>\` of the page's HTML that a current browser loads (the \`noModule\` polyfills are skipped), gzipped at level 9. Nearly all of it is the Next.js and React runtime every App Router page loads; none of it is needed before the customer can pay. The page's HTML: ${builds.map((b, i) => `${b.label} **${kib(js[i]!.page.gzip)} gzip** (${kib(js[i]!.page.raw)} raw)`).join('; ')}.`,
        '',
        '| scenario | build | shown | usable | after first byte | hydrated | usable as polled before | usable, each run | after first byte, each run | hydrated, each run |',
        '|---|---|---:|---:|---:|---:|---:|---|---|---|',
        ...results.map(
          (r) =>
            `| ${r.name} | ${r.build} | ${ms(med(r.runs, 'shown'))} | **${ms(med(r.runs, 'usable'))}** | ${ms(med(r.runs, 'afterFirstByte'))} | ${ms(med(r.runs, 'interactive'))} | ${ms(med(r.runs, 'polled'))} | ${r.runs.map((t) => Math.round(t.usable)).join(', ')} | ${r.runs.map((t) => Math.round(t.afterFirstByte)).join(', ')} | ${r.runs.map((t) => Math.round(t.interactive)).join(', ')} |`,
        ),
        '',
        `Usable, desktop cold: ${coldUsable.join('; ')}. ${WHAT_CHANGED}`,
      ].join('\n'),
      HEADING,
    );
    console.log(`widget ${gzip} bytes gzipped; written to docs/benchmarks.md`);
  } finally {
    await browser.close();
    await new Promise((resolve) => site.close(resolve));
    for (const build of launched) await build.server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
