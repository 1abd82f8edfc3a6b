// One load run with autocannon and what the bench reports of it. Latencies are taken from
// autocannon's per-response event (sub-millisecond, as measured by autocannon) rather than its
// histogram, which keeps whole milliseconds only.
import autocannon from 'autocannon';
import { LIMITS } from '@/lib/rate-limit';
import type { BenchMerchant } from './setup';

/**
 * `create` and `status` are bench:api's endpoints, `usage` and `usage-batch` bench:usage's. `floor` is GET status
 * without credentials: a 401 from the route wrapper before any database work, so it prices the
 * plumbing alone.
 */
export type Scenario = 'create' | 'status' | 'usage' | 'usage-batch' | 'floor';
export type Measured = 'create' | 'status';

export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Where a run takes its requests: a Rotation, or bench:usage's reports. */
export interface RequestSource {
  readonly keys: number;
  /** What a request draws from its key's rate limit (a batch's reports); 1 unless set. */
  readonly weight?: number;
  request(scenario: Scenario): BenchRequest;
}

export const CONNECTIONS = 50;

export interface RunResult {
  /** Expected responses (2xx; 401 for `floor`) per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  /** Responses with another status: a 429 or an error means the run measured the wrong thing. */
  unexpected: number;
  /** Every request the server answered, counted or not (the server's CPU is divided by it). */
  requests: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Share of the machine's CPU that other processes took during the run, when known. */
  otherCpu?: number;
  /** CPU time (user + system) the server process spent per request, in ms, when known. */
  serverCpuMs?: number;
  /** CPU time (user + system) every PostgreSQL process spent per request, in ms, when known. */
  dbCpuMs?: number;
}

export function expectedStatus(scenario: Scenario, code: number): boolean {
  return scenario === 'floor' ? code === 401 : code >= 200 && code < 300;
}

/**
 * Requests rotate over the merchants round-robin, so each api_key's rate limit sees a small share
 * of the load. The rotation continues across runs (one cursor per server and scenario), since each
 * server keeps its limiter's counts for the whole bench.
 */
export class Rotation implements RequestSource {
  private cursor = 0;
  constructor(
    private readonly merchants: BenchMerchant[],
    private readonly tag: string,
  ) {}

  get keys(): number {
    return this.merchants.length;
  }

  /** The next request of `scenario`, from the next merchant in turn. */
  request(scenario: Scenario): BenchRequest {
    const n = this.cursor++;
    const merchant = this.merchants[n % this.merchants.length]!;
    if (scenario === 'create') {
      return {
        method: 'POST',
        path: '/merchants/subscription-link',
        headers: { authorization: merchant.authorization, 'content-type': 'application/json' },
        // The example of docs/api.md#create-a-payment-link; externalReference unique per request (an open duplicate is a 409).
        body: JSON.stringify({
          customer: { phone: '+573001234567', email: 'ana@example.com' },
          plan: { externalReference: `bench-${this.tag}-${n}`, description: 'Plan mensual', amount: 150000 },
        }),
      };
    }
    const path = `/merchants/plans/${merchant.planId}/status`;
    return { method: 'GET', path, headers: scenario === 'status' ? { authorization: merchant.authorization } : {} };
  }
}

/**
 * Why a run at `rps` over `keys` keys measured the wrong thing: each key came back more than half
 * its rate limit a minute, so some answers were 429s or about to be. Undefined when it did not.
 */
function nearRateLimit(scenario: Scenario, rps: number, keys: number, weight: number): string | undefined {
  if (scenario === 'floor') return undefined;
  const perKeyPerMinute = (rps * weight * 60) / keys;
  const limit = LIMITS[scenario === 'create' ? 'create-link' : scenario === 'status' ? 'plan-status' : 'usage'];
  return perKeyPerMinute > limit / 2 ? `${perKeyPerMinute.toFixed(0)} ${weight === 1 ? 'requests' : 'reports'} a minute per key, near the limit of ${limit}: raise --merchants` : undefined;
}

/**
 * Why run `r` of `scenario` over `keys` keys measured the wrong thing: an answer other than the
 * expected one (or none at all), or a key near its rate limit. Undefined when it measured what it should.
 */
export function wrongRun(scenario: Scenario, r: RunResult, keys: number, weight = 1): string | undefined {
  if (r.unexpected || r.errors || r.timeouts || r.ok === 0) {
    return `${r.ok} ok, ${r.unexpected} unexpected ${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} timeouts`;
  }
  return nearRateLimit(scenario, r.rps, keys, weight);
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Latencies (ms) of the expected responses, the status counts and the elapsed time, as a RunResult. */
export function resultOf(
  latencies: number[],
  counts: { statusCodes: Record<string, number>; errors: number; timeouts: number },
  seconds: number,
): RunResult {
  const sorted = Float64Array.from(latencies).sort();
  const answered = Object.values(counts.statusCodes).reduce((a, b) => a + b, 0);
  return {
    rps: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    ok: sorted.length,
    unexpected: answered - sorted.length,
    requests: answered,
    ...counts,
  };
}

export interface LoadOptions {
  url: string;
  scenario: Scenario;
  rotation: RequestSource;
  seconds: number;
  /** Sent with every request besides the scenario's own. */
  headers?: Record<string, string>;
  /** Stop after this many requests instead of after `seconds`. */
  amount?: number;
}

/** Flat out: every connection sends its next request as soon as the previous one is answered. */
export async function runLoad({ url, scenario, rotation, seconds, headers, amount }: LoadOptions): Promise<RunResult> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: seconds,
        amount,
        requests: [
          {
            setupRequest: (req) => {
              const next = rotation.request(scenario);
              return { ...req, ...next, headers: { ...next.headers, ...headers } };
            },
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (expectedStatus(scenario, statusCode)) latencies.push(responseTime);
    });
  });
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count ?? 0]),
  );
  return resultOf(latencies, { statusCodes, errors: result.errors, timeouts: result.timeouts }, result.duration);
}
