import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, type OpenApiDocument } from './document';
import fixture from './document.fixture.json';

// The document before operations were declared beside their handlers (docs/api.md), kept while
// the change lands: the generated one must say the same, field for field.

const doc = buildOpenApiDocument({ appUrl: 'https://pay.example.co', checkoutTokenTtlSeconds: 86_400 });

/** "METHOD /path → statuses" of every operation, and the names of the component schemas. */
function outline(d: Pick<OpenApiDocument, 'paths' | 'webhooks' | 'components'>) {
  return {
    operations: Object.entries(d.paths)
      .flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} → ${Object.keys(op.responses as object).sort().join(' ')}`),
      )
      .sort(),
    webhooks: Object.keys(d.webhooks).sort(),
    schemas: Object.keys(d.components.schemas).sort(),
  };
}

describe('the generated OpenAPI document', () => {
  it('has the operations, status codes, webhooks and schema names it had', () => {
    expect(outline(doc)).toEqual(outline(fixture as never));
  });

  it('equals the document it replaces, but for what zod-openapi writes otherwise', () => {
    expect(normalized(doc)).toEqual(normalized(fixture));
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * The document with the differences that change nothing for a reader taken out: a parameter's
 * `required: false` (the default) and its description repeated from its schema; the `type` beside
 * the `oneOf` of a discriminated union; and the Wompi event body, hand-written before and now
 * generated from the schema its route parses (stricter: the limits and the string timestamp it
 * accepts).
 */
function normalized(document: unknown): Json {
  const copy = JSON.parse(JSON.stringify(document)) as Json;
  const visit = (node: Json) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    if (node.in && node.schema) {
      if (node.required === false) delete node.required;
      if (node.description === node.schema.description) delete node.description;
    }
    if (node.oneOf && node.type === 'object') delete node.type;
    Object.values(node).forEach(visit);
  };
  visit(copy);
  delete copy.paths['/processors/wompi/events/{merchantId}'].post.requestBody.content['application/json'].schema;
  return copy;
}

describe('the normalization', () => {
  it('still tells a changed document from the fixture', () => {
    const changed = structuredClone(fixture) as Json;
    changed.paths['/merchants/subscription-link'].post.responses['409'].description = 'changed';
    expect(normalized(changed)).not.toEqual(normalized(fixture));
  });
});
