import { API_VERSIONS, type ApiVersion, isApiVersion, VERSION_HEADER } from '@/lib/api-versions';
import { ApiError } from './errors';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const KNOWN = API_VERSIONS.join(', ');

/** An unknown version is a 400 naming `name`. */
export function versionOrFallback(
  value: string | null,
  fallback: ApiVersion,
  { name, headers }: { name: string; headers?: Record<string, string> },
): ApiVersion {
  if (value === null) return fallback;
  const trimmed = value.trim();
  if (isApiVersion(trimmed)) return trimmed;
  // Quoted and cut: the caller's value goes back into a message.
  const shown = JSON.stringify(trimmed.length > 40 ? `${trimmed.slice(0, 40)}…` : trimmed);
  throw new ApiError(
    'invalid_request',
    DATE.test(trimmed)
      ? `${name} ${shown} is not a version of this API; the versions are ${KNOWN}`
      : `${name} ${shown} must be a version date (YYYY-MM-DD); the versions are ${KNOWN}`,
    { headers },
  );
}

/** Its `ServicePay-Version` header, else the pinned one. */
export function requestedVersion(req: Pick<Request, 'headers'>, pinned: ApiVersion, errorHeaders?: Record<string, string>): ApiVersion {
  return versionOrFallback(req.headers.get(VERSION_HEADER), pinned, { name: VERSION_HEADER, headers: errorHeaders });
}
