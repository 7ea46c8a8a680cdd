// The JSON Schemas in docs/formats/ must match the zod contracts they are generated from.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { formatSchemas } from '../../../worker/contracts/json-schemas.ts';

describe('docs/formats JSON Schemas', () => {
  for (const [name, schema] of Object.entries(formatSchemas())) {
    it(`${name}.schema.json is current (regenerate with: node --import tsx scripts/generate-schemas.ts)`, async () => {
      const onDisk = JSON.parse(await readFile(`docs/formats/${name}.schema.json`, 'utf8'));
      expect(onDisk).toEqual(JSON.parse(JSON.stringify(schema)));
    });
  }
});
