// POST /checkout/csp-report: the checkout's and the manage page's CSP violation reports, logged (lib/checkout/csp-report.ts).
import { clientIp } from '@/lib/api/with-checkout';
import { CSP_REPORT_MAX_BYTES, cspViolations } from '@/lib/checkout/csp-report';
import { log } from '@/lib/log';
import { getRateLimiter } from '@/lib/rate-limit';

export async function POST(req: Request): Promise<Response> {
  if (!(await getRateLimiter().limit('csp-report', clientIp(req))).success) return new Response(null, { status: 429 });
  const raw = await req.text();
  if (raw.length > CSP_REPORT_MAX_BYTES) return new Response(null, { status: 413 });
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return new Response(null, { status: 400 });
  }
  const violations = cspViolations(body);
  if (!violations) return new Response(null, { status: 400 });
  for (const violation of violations) log.warn('content security policy violation', { ...violation });
  return new Response(null, { status: 204 });
}
