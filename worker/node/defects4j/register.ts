// Adding imported Defects4J bugs to an engine's catalogue (the CLI's `--register`, `repairlab defects4j check`).
// Each bug registers on its own: one that cannot be added is reported, the others still are.
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Engine } from '../../bugs/engine.ts';
import type { ImportedBug, ImportFailure } from './defects4j-import.ts';

export async function registerImported(engine: Engine, bugs: ImportedBug[], outDir: string): Promise<ImportFailure[]> {
  const failures: ImportFailure[] = [];
  for (const b of bugs) {
    const specFile = join(outDir, b.specPath);
    const files = [
      { name: basename(b.bundlePath), bytes: new Uint8Array(await readFile(b.bundlePath)) },
      { name: `${b.spec.id}.json`, bytes: new Uint8Array(await readFile(specFile)) },
    ];
    for (const r of await engine.importFiles(files)) {
      if (!r.ok) failures.push({ bugId: b.spec.id, message: `${b.spec.id}: written to ${outDir}/ but not added to the catalogue: ${r.message}`, input: r.name.endsWith('.json') ? specFile : b.bundlePath });
    }
  }
  return failures;
}
