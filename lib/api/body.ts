import type { z } from 'zod';
import { ApiError, validationError } from './errors';

export const MAX_BODY_BYTES = 64 * 1024;
/** Our deepest body (a Wompi event) nests 5 levels. */
export const MAX_JSON_DEPTH = 32;
/** All levels together; our largest body holds under 100. */
export const MAX_JSON_KEYS = 1000;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Refused with 413 past 64 KiB (declared or as read) before it is all held. */
export async function readCapped(req: Request): Promise<string> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    // A client hanging up mid-body is a bad request, not our fault to log.
    const { done, value } = await reader.read().catch(() => {
      throw new ApiError('invalid_request', 'The request body ended before it was complete');
    });
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
}

function tooLarge() {
  return new ApiError('payload_too_large', `The body is larger than ${MAX_BODY_BYTES / 1024} KiB`);
}

/** 400 past MAX_JSON_DEPTH, 413 past MAX_JSON_KEYS, before parsing. */
function checkJsonShape(text: string): void {
  let depth = 0;
  let keys = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) {
        throw new ApiError('invalid_request', `The body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`);
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x3a && ++keys > MAX_JSON_KEYS) {
      throw new ApiError('payload_too_large', `The body holds more than ${MAX_JSON_KEYS} keys`);
    }
  }
}

/** 415, 400 or 413 for anything but a JSON object, never a 500; with `optional`, empty is `{}`. */
export function parseJsonObject(
  text: string,
  contentType: string | null,
  options: { optional?: boolean } = {},
): Record<string, unknown> {
  let value: unknown;
  if (text.trim() === '') {
    if (!options.optional) throw new ApiError('invalid_request', 'A JSON object body is required');
    value = {};
  } else {
    if (!contentType || !JSON_TYPE.test(contentType)) {
      throw new ApiError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json');
    }
    checkJsonShape(text);
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError('invalid_request', 'The body is not valid JSON');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'The body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/** PostgreSQL's text cannot store U+0000. */
function findNul(root: unknown): string | null {
  interface At { value: unknown; key: string; parent: At | null }
  const pathOf = (at: At | null): string => {
    const keys: string[] = [];
    for (let node = at; node?.parent; node = node.parent) keys.push(node.key);
    return keys.reverse().join('.');
  };
  const stack: At[] = [{ value: root, key: '', parent: null }];
  while (stack.length) {
    const at = stack.pop()!;
    if (typeof at.value === 'string') {
      if (at.value.includes('\u0000')) return pathOf(at);
      continue;
    }
    if (typeof at.value !== 'object' || at.value === null) continue;
    const entries = Object.entries(at.value);
    for (const [key] of entries) if (key.includes('\u0000')) return pathOf(at);
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], key: entries[i]![0], parent: at });
  }
  return null;
}

export async function readJsonObject(req: Request, options: { optional?: boolean } = {}): Promise<Record<string, unknown>> {
  return parseJsonObject(await readCapped(req), req.headers.get('content-type'), options);
}

/** 400 with one detail per bad field, or naming a field that holds NUL. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const nul = findNul(value);
  if (nul !== null) {
    const path = nul || '(body)';
    const message = 'must not contain the NUL character (\\u0000)';
    throw new ApiError('invalid_request', `${path}: ${message}`, { details: [{ path, message }] });
  }
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

export async function readJson<S extends z.ZodType>(
  req: Request,
  schema: S,
  options: { optional?: boolean } = {},
): Promise<z.infer<S>> {
  return parseWith(schema, await readJsonObject(req, options));
}
