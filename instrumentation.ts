export async function register() {
  // Route modules are also loaded while `next build` collects page data: no database then.
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { applyServerV8Flags } = await import('./lib/server-v8');
  applyServerV8Flags();
  const { startMemoryRelease } = await import('./lib/server-memory');
  startMemoryRelease();
  // Before any request: what Next.js cannot represent is answered or repaired first.
  const { installRequestGuard } = await import('./lib/http/request-guard');
  installRequestGuard();
  const { bootstrap } = await import('./lib/bootstrap');
  await bootstrap();
}
