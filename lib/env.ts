import { createHash } from 'node:crypto';
import { z } from 'zod';

// Every setting of docs/operations.md#running-it, validated in one place; a bad value stops start-up naming it.

const SEALING_KEY_MESSAGE = 'expected 32 random bytes as 64 hex digits or base64 (openssl rand -hex 32)';
const isSealingKey = (v: string) => (/^[0-9a-f]{64}$/i.test(v) ? true : Buffer.from(v, 'base64').length === 32 && /^[A-Za-z0-9+/]+=*$/.test(v));

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const flag = z
  .enum(['0', '1', 'true', 'false', ''], { error: 'expected 1 or 0' })
  .optional()
  .transform((v) => v === '1' || v === 'true');

const positiveInt = (fallback: number) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? fallback : Number(v)),
    z.number({ error: 'expected a whole number' }).int('expected a whole number').positive('expected a number above 0'),
  );

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'expected an http(s):// URL' })
  .transform((u) => u.replace(/\/+$/, ''));

/** Outside production a missing BETTER_AUTH_SECRET derives from the database name: stable, worthless. */
function developmentAuthSecret(database: string): string {
  return createHash('sha256').update(`servicepay-development-auth:${database}`).digest('hex');
}

// The day's bursts (docs/operations.md#bursts): processor calls in flight per instance and per
// merchant, and how long a sweep's claim on a due plan lasts if its instance dies.
const burstSchema = z.object({
  SWEEP_CONCURRENCY: positiveInt(128),
  SWEEP_MERCHANT_CONCURRENCY: positiveInt(16),
  SWEEP_LEASE_SECONDS: positiveInt(120),
});

/** The burst settings alone: `next build` loads them (Inngest concurrency) without the other settings. */
export function burstSettings(source: Record<string, string | undefined> = process.env): z.infer<typeof burstSchema> {
  const result = burstSchema.safeParse(source);
  if (!result.success) throw new EnvError(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  return result.data;
}

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.preprocess(
      (v) => (v === undefined || v === '' ? 3000 : Number(v)),
      z.number({ error: 'expected a port number' }).int().min(1, 'expected 1..65535').max(65535, 'expected 1..65535'),
    ),
    APP_URL: httpUrl.optional().or(z.literal('').transform(() => undefined)),
    DATABASE_URL: z
      .string()
      .optional()
      .transform((v) => (v?.trim() ? v.trim() : undefined))
      .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), 'expected a postgres:// URL'),
    PGLITE_DATA_DIR: z.string().default('.data/pglite'),
    UPSTASH_REDIS_REST_URL: httpUrl.optional().or(z.literal('').transform(() => undefined)),
    UPSTASH_REDIS_REST_TOKEN: optionalString,
    INNGEST_EVENT_KEY: optionalString,
    INNGEST_SIGNING_KEY: optionalString,
    INNGEST_DEV: optionalString,
    INNGEST_BASE_URL: optionalString,
    ADMIN_API_TOKEN: optionalString.refine(
      (v) => v === undefined || v.length >= 16,
      'expected at least 16 characters (it guards the operator API)',
    ),
    CHECKOUT_TOKEN_TTL_SECONDS: positiveInt(86_400),
    SANDBOX_PENDING_MS: z.preprocess(
      (v) => (v === undefined || v === '' ? 3000 : Number(v)),
      z.number({ error: 'expected milliseconds' }).int('expected whole milliseconds').min(0, 'expected 0 or more'),
    ),
    WEBHOOK_ALLOW_PRIVATE_NETWORK: flag,
    BETTER_AUTH_SECRET: optionalString.refine(
      (v) => v === undefined || v.length >= 32,
      'expected at least 32 characters (it signs portal session cookies)',
    ),
    // Sandbox-only deployment: the test clock is allowed even in production.
    SANDBOX_DEPLOYMENT: flag,
    // docs/operations.md#secrets-at-rest: keys newest first, comma-separated; KEY is the one-key form.
    SECRETS_ENCRYPTION_KEY: optionalString.refine((v) => v === undefined || isSealingKey(v), SEALING_KEY_MESSAGE),
    SECRETS_ENCRYPTION_KEYS: optionalString
      .transform((v) => (v === undefined ? undefined : v.split(',').map((k) => k.trim())))
      .refine((keys) => keys === undefined || keys.every(isSealingKey), `each key: ${SEALING_KEY_MESSAGE}, separated by commas`),
    // smtp:// or smtps:// URL. Unset outside production: e-mails are kept (/dev/emails), never sent.
    SMTP_URL: optionalString.refine((v) => v === undefined || /^smtps?:\/\/[^/]/.test(v), 'expected an smtp:// or smtps:// URL'),
    EMAIL_FROM: optionalString,
    ...burstSchema.shape,
    // A local Wompi double's base URL (…/v1) instead of the key prefix's.
    WOMPI_API_URL: httpUrl.optional().or(z.literal('').transform(() => undefined)),
    // E-invoicing providers' base URLs (a local double). Unset: sandbox outside production, else production.
    FACTUS_API_URL: httpUrl.optional().or(z.literal('').transform(() => undefined)),
    ALEGRA_API_URL: httpUrl.optional().or(z.literal('').transform(() => undefined)),
    // One e-invoicing provider call's deadline; an invoice's claim lasts three.
    EINVOICE_CALL_TIMEOUT_MS: positiveInt(30_000),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.UPSTASH_REDIS_REST_URL) !== Boolean(env.UPSTASH_REDIS_REST_TOKEN)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.UPSTASH_REDIS_REST_URL ? 'UPSTASH_REDIS_REST_TOKEN' : 'UPSTASH_REDIS_REST_URL'],
        message: 'UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN are set together or not at all',
      });
    }
    if (env.SECRETS_ENCRYPTION_KEY && env.SECRETS_ENCRYPTION_KEYS) {
      ctx.addIssue({ code: 'custom', path: ['SECRETS_ENCRYPTION_KEY'], message: 'set SECRETS_ENCRYPTION_KEYS or SECRETS_ENCRYPTION_KEY, not both' });
    }
    if (env.NODE_ENV === 'production' && !env.BETTER_AUTH_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['BETTER_AUTH_SECRET'],
        message: 'required in production (at least 32 random characters; it signs portal session cookies)',
      });
    }
  })
  .transform((env) => ({
    ...env,
    APP_URL: env.APP_URL ?? `http://localhost:${env.PORT}`,
    EMAIL_FROM: env.EMAIL_FROM ?? 'ServicePay <no-reply@servicepay.localhost>',
    BETTER_AUTH_SECRET: env.BETTER_AUTH_SECRET ?? developmentAuthSecret(env.DATABASE_URL ?? env.PGLITE_DATA_DIR),
  }));

type Env = z.infer<typeof schema>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'EnvError';
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`));
  }
  return result.data;
}

let cached: Env | EnvError | undefined;

/** Parsed on first use; invalid settings throw the same EnvError every time. */
export function env(): Env {
  if (cached === undefined) {
    try {
      cached = parseEnv(process.env);
    } catch (error) {
      if (!(error instanceof EnvError)) throw error;
      cached = error;
    }
  }
  if (cached instanceof EnvError) throw cached;
  return cached;
}

export function resetEnvForTests(): void {
  cached = undefined;
}

/** On a development server only. */
export function devPagesServed(settings: Pick<Env, 'NODE_ENV'> = env()): boolean {
  return settings.NODE_ENV !== 'production';
}
