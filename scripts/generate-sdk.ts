// npm run sdk:generate: writes packages/node/src/generated.ts, the @servicepay/node SDK's types and
// operation table, from the same operation declarations as the OpenAPI document (the newest API
// version's document). packages/node/test/generated.test.ts fails when the file and the
// declarations drift (docs/sdk.md).
import fs from 'node:fs';
import path from 'node:path';
import { LATEST_API_VERSION } from '../lib/api-versions';
import { OPERATIONS } from '../app/api/openapi.json/operations';
import { buildOpenApiDocument, type OpenApiDocument } from '../lib/openapi/document';

export const GENERATED_FILE = path.join(__dirname, '..', 'packages', 'node', 'src', 'generated.ts');

type Json = Record<string, unknown>;

/** A component's name in the SDK: the error body is not called Error, which is JavaScript's. */
const typeName = (name: string) => (name === 'Error' ? 'ErrorBody' : name);
const refName = (ref: string) => ref.replace('#/components/schemas/', '');
const literal = (value: unknown) => JSON.stringify(value);
const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

/** A JSON Schema (the subset zod emits) as a TypeScript type. */
function typeOf(schema: Json, indent: string): string {
  if (typeof schema.$ref === 'string') return typeName(refName(schema.$ref));
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ');
  for (const union of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[union])) return (schema[union] as Json[]).map((s) => typeOf(s, indent)).join(' | ');
  }
  if (Array.isArray(schema.allOf)) return (schema.allOf as Json[]).map((s) => typeOf(s, indent)).join(' & ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  return types
    .map((type) => {
      switch (type) {
        case 'string':
          return 'string';
        case 'number':
        case 'integer':
          return 'number';
        case 'boolean':
          return 'boolean';
        case 'null':
          return 'null';
        case 'array':
          return `Array<${typeOf((schema.items as Json) ?? {}, indent)}>`;
        case 'object': {
          const properties = (schema.properties as Record<string, Json>) ?? {};
          const required = new Set((schema.required as string[]) ?? []);
          const inner = `${indent}  `;
          const lines = Object.entries(properties).map(([name, property]) => {
            const doc = typeof property.description === 'string' ? `${inner}/** ${property.description.replaceAll('*/', '*\\/')} */\n` : '';
            return `${doc}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, inner)};`;
          });
          return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : 'Record<string, never>';
        }
        default:
          return 'unknown';
      }
    })
    .join(' | ');
}

/** Every schema `schema` names, transitively. */
function refsOf(schema: unknown, document: OpenApiDocument, into: Set<string>): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) refsOf(s, document, into);
  else if (schema && typeof schema === 'object') {
    const ref = (schema as Json).$ref;
    if (typeof ref === 'string' && !into.has(refName(ref))) {
      into.add(refName(ref));
      refsOf(document.components.schemas[refName(ref)], document, into);
    }
    for (const value of Object.values(schema)) refsOf(value, document, into);
  }
  return into;
}

/** `schema` with every $ref replaced by the schema it names (for the run-time check of bodies). */
function inline(schema: unknown, document: OpenApiDocument): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, document));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as Json).$ref;
  if (typeof ref === 'string') return inline(document.components.schemas[refName(ref)], document);
  const kept = ['type', 'properties', 'required', 'items', 'enum', 'const', 'anyOf', 'oneOf', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern'];
  return Object.fromEntries(Object.entries(schema).filter(([k]) => kept.includes(k)).map(([k, v]) => [k, k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, inline(s, document)])) : inline(v, document)]));
}

interface OperationEntry {
  method: string;
  path: string;
  params: string[];
  query: string[];
  body: string | null;
  bodyRequired: boolean;
  reply: string | null;
}

export function generateSdkSource(): string {
  const document = buildOpenApiDocument({ appUrl: 'https://servicepay.example', checkoutTokenTtlSeconds: 86_400 }, OPERATIONS);
  const operations: Record<string, OperationEntry> = {};
  const bodies: Record<string, unknown> = {};
  const named = new Set<string>(['WebhookEvent', 'SubscriptionLifecycleEvent', 'Error']);
  for (const [route, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!route.startsWith('/merchants/')) continue;
      const operationId = op.operationId as string;
      const parameters = (op.parameters as { name: string; in: string }[] | undefined) ?? [];
      const requestBody = op.requestBody as { required?: boolean; content: Record<string, { schema: Json }> } | undefined;
      const bodySchema = requestBody?.content['application/json']?.schema;
      const ok = Object.entries(op.responses as Record<string, { content?: Record<string, { schema: Json }> }>).find(([status]) => status.startsWith('2'));
      const replySchema = ok?.[1].content?.['application/json']?.schema;
      refsOf(bodySchema, document, named);
      refsOf(replySchema, document, named);
      if (bodySchema) bodies[operationId] = inline(bodySchema, document);
      operations[operationId] = {
        method: method.toUpperCase(),
        path: route,
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        body: bodySchema ? (typeof bodySchema.$ref === 'string' ? refName(bodySchema.$ref) : 'Record<string, never>') : null,
        bodyRequired: Boolean(requestBody?.required),
        reply: replySchema && typeof replySchema.$ref === 'string' ? refName(replySchema.$ref) : null,
      };
    }
  }
  for (const name of [...named]) refsOf(document.components.schemas[name], document, named);
  const types = [...named]
    .sort()
    .map((name) => {
      const schema = document.components.schemas[name] as Json;
      const doc = typeof schema.description === 'string' ? `/** ${schema.description.replaceAll('*/', '*\\/')} */\n` : '';
      return `${doc}export type ${typeName(name)} = ${typeOf(schema, '')};`;
    });
  const operationTypes = Object.entries(operations).map(
    ([id, op]) =>
      `  ${id}: { params: { ${op.params.map((p) => `${key(p)}: string`).join('; ')} }; query: { ${op.query.map((q) => `${key(q)}?: string | number`).join('; ')} }; body: ${op.body ?? 'never'}; reply: ${op.reply ?? 'unknown'} };`,
  );
  return [
    `// Generated by \`npm run sdk:generate\` (scripts/generate-sdk.ts) from the operation declarations of`,
    `// the ServicePay API, API version ${LATEST_API_VERSION}: do not edit. packages/node/test/generated.test.ts fails when`,
    '// this file and the declarations drift.',
    '/* eslint-disable */',
    '',
    `/** The API version these types describe; the client sends it in ServicePay-Version. */`,
    `export const API_VERSION = ${literal(LATEST_API_VERSION)};`,
    '',
    ...types.flatMap((t) => [t, '']),
    '/** Every merchant operation: its path parameters, query, body and reply. */',
    'export interface Operations {',
    ...operationTypes,
    '}',
    '',
    '/** How each operation is called. */',
    `export const OPERATIONS = ${JSON.stringify(
      Object.fromEntries(Object.entries(operations).map(([id, op]) => [id, { method: op.method, path: op.path, query: op.query, bodyRequired: op.bodyRequired }])),
      null,
      2,
    )} as const;`,
    '',
    '/** The JSON Schema of each request body, checked before a request is sent. */',
    `export const REQUEST_BODIES: Record<string, unknown> = ${JSON.stringify(bodies, null, 2)};`,
    '',
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === __filename) {
  fs.writeFileSync(GENERATED_FILE, generateSdkSource());
  console.log(`wrote ${path.relative(process.cwd(), GENERATED_FILE)}`);
}
