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

  it('equals the document it replaces', () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(fixture);
  });
});
