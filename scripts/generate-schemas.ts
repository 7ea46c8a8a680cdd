// Writes the JSON Schemas of RepairLab's file formats into docs/formats/ from the zod contracts (the single
// source of truth). `test/unit/contracts/schemas.test.ts` fails when the checked-in copies are stale.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { formatSchemas } from '../worker/contracts/json-schemas.ts';

const outDir = fileURLToPath(new URL('../docs/formats/', import.meta.url));
for (const [name, schema] of Object.entries(formatSchemas())) {
  await writeFile(`${outDir}${name}.schema.json`, JSON.stringify(schema, null, 2) + '\n');
  console.log(`docs/formats/${name}.schema.json`);
}
