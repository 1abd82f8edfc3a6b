import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, generateSdkSource } from '@/scripts/generate-sdk';
import { OPERATIONS } from '@/app/api/openapi.json/operations';

// The SDK's types come from the same operation declarations as the OpenAPI document
// (scripts/generate-sdk.ts). A declaration changed without `npm run sdk:generate` fails here.

describe('packages/node/src/generated.ts', () => {
  it('is what the operation declarations generate now', () => {
    expect(fs.readFileSync(GENERATED_FILE, 'utf8'), 'run `npm run sdk:generate`').toBe(generateSdkSource());
  });

  it('covers every merchant operation', () => {
    const source = fs.readFileSync(GENERATED_FILE, 'utf8');
    const merchantOps = OPERATIONS.filter((op) => op.auth === 'merchant' && !op.undocumented);
    expect(merchantOps.length).toBeGreaterThan(5);
    for (const op of merchantOps) expect(source, op.operationId).toContain(`  ${op.operationId}: { params:`);
  });
});
