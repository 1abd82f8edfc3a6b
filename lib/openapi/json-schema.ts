import { z } from 'zod';

// The zod schemas the handlers use, as the JSON Schema 2020-12 that OpenAPI 3.1 speaks. Every
// schema named with `.meta({ id })` becomes one entry of components.schemas, referenced by `$ref`.

export type JsonObject = Record<string, unknown>;
export type Io = 'input' | 'output';
/** Path → method → operation. */
export type PathItems = Record<string, Record<string, JsonObject>>;

const DEFS = '#/$defs/';
const COMPONENTS = '#/components/schemas/';

/** Drops what zod emits that tells a reader nothing, or tells a client too much. */
function tidy(schema: z.core.JSONSchema.BaseSchema, io: Io): void {
  // z.int() bounds itself to the safe integers, which any JSON number parser already enforces.
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  // z.iso.datetime() adds a page-wide pattern on top of `format: date-time`; the field's
  // description says the precise form (UTC, milliseconds).
  if (schema.format === 'date-time') delete schema.pattern;
  // Replies are stripped to their schema, but a later release may add a field (DECISIONS
  // extensions do): a client validating replies must not reject one it does not know yet.
  if (io === 'output' && schema.additionalProperties === false) delete schema.additionalProperties;
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === '$ref' && typeof v === 'string' && v.startsWith(DEFS) ? COMPONENTS + v.slice(DEFS.length) : rewriteRefs(v),
    ]),
  );
}

/** components.schemas, filled as operations ask for schemas. */
export class SchemaComponents {
  readonly schemas: Record<string, JsonObject> = {};

  /**
   * The JSON Schema of `schema` read as a request (`input`: defaults optional, before transforms)
   * or as a reply (`output`). Named schemas come back as a `$ref`; `name` names one that has no id.
   */
  schema(schema: z.ZodType, io: Io, name?: string): JsonObject {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, override: (ctx) => tidy(ctx.jsonSchema, io) });
    const root = rewriteRefs(json) as JsonObject;
    const defs = (root.$defs ?? {}) as Record<string, JsonObject>;
    // The dialect is the document's (OpenAPI 3.1 defaults to 2020-12), and definitions move out.
    delete root.$schema;
    delete root.$defs;
    for (const [id, definition] of Object.entries(defs)) this.add(id, definition);
    if (name === undefined || typeof root.$ref === 'string') return root;
    this.add(name, root);
    return { $ref: COMPONENTS + name };
  }

  private add(name: string, definition: JsonObject): void {
    const existing = this.schemas[name];
    // One name, one shape: an input and an output reading of a schema that differ must not share it.
    if (existing && JSON.stringify(existing) !== JSON.stringify(definition)) {
      throw new Error(`OpenAPI: two different schemas are named "${name}"`);
    }
    this.schemas[name] = definition;
  }
}
