export async function register() {
  // Route modules are also loaded while `next build` collects page data: no database then.
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { bootstrap } = await import('./lib/bootstrap');
  await bootstrap();
}
