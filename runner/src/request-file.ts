// The harness reads `key<TAB>value` lines (runner/java/src/repairlab/harness/Request.java).
import { writeFile } from 'node:fs/promises';

export type RequestEntries = Array<[key: string, value: string | number | boolean]>;

export async function writeRequestFile(file: string, entries: RequestEntries): Promise<void> {
  const lines = entries.map(([k, v]) => {
    const value = String(v);
    if (/[\n\r]/.test(value) || /[\t\n\r]/.test(k)) throw new Error(`request value for ${k} contains a line break: ${JSON.stringify(value)}`);
    return `${k}\t${value}`;
  });
  await writeFile(file, lines.join('\n') + '\n');
}
