import { ArgumentError } from './errors.js';

// The run-time check of a request body against its JSON Schema (generated.ts, from the API's own
// declarations): a JavaScript caller's wrong type is a clear error before anything is sent. It
// checks types, required fields, enums and bounds; the API checks the rest (and everything again).

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
};

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A value as the message shows it: short, and typed (a string in quotes). */
function shown(value: unknown): string {
  const text = typeof value === 'object' && value !== null ? (Array.isArray(value) ? 'an array' : 'an object') : JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** The first problem of `value` against `schema`, as "path: problem", or undefined. */
export function problemOf(value: unknown, schema: Schema, path: string): string | undefined {
  const at = path || '(body)';
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.some((s) => problemOf(value, s, path) === undefined) ? undefined : `${at}: does not match any allowed form`;
  if ('const' in schema && value !== schema.const) return `${at}: must be ${JSON.stringify(schema.const)}`;
  if (schema.enum && !schema.enum.includes(value)) return `${at}: must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (schema.type) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const kind = kindOf(value);
    const fits = types.some((t) => t === kind || (t === 'number' && kind === 'integer'));
    if (!fits) return `${at}: must be ${types.map((t) => (t === 'integer' ? 'a whole number' : t === 'object' ? 'an object' : t === 'array' ? 'an array' : `a ${t}`)).join(' or ')}, not ${shown(value)}`;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return `${at}: must be at least ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `${at}: must be at most ${schema.maximum}`;
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) return `${at}: must be at least ${schema.minLength} characters`;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return `${at}: must be at most ${schema.maxLength} characters`;
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) return `${at}: must match ${schema.pattern}`;
  }
  if (Array.isArray(value) && schema.items) {
    for (const [i, item] of value.entries()) {
      const problem = problemOf(item, schema.items, `${path}[${i}]`);
      if (problem) return problem;
    }
  }
  if (kindOf(value) === 'object' && schema.properties) {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (object[name] === undefined) return `${path ? `${path}.` : ''}${name}: is required`;
    }
    for (const [name, property] of Object.entries(schema.properties)) {
      if (object[name] === undefined) continue;
      const problem = problemOf(object[name], property, path ? `${path}.${name}` : name);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** Throws an ArgumentError naming the first problem of `value`. */
export function checkArgument(operation: string, value: unknown, schema: unknown): void {
  const problem = problemOf(value, schema as Schema, '');
  if (problem) throw new ArgumentError(`${operation}: ${problem} (nothing was sent)`);
}
