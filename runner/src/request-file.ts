// The harness reads `key<TAB>value` lines (runner/java/src/repairlab/harness/Request.java).
import { writeFile } from 'node:fs/promises';

export type RequestEntries = Array<[key: string, value: string | number | boolean]>;

export function requestText(entries: RequestEntries): string {
  const lines = entries.map(([k, v]) => {
    const value = String(v);
    if (/[\n\r]/.test(value) || /[\t\n\r]/.test(k)) throw new Error(`request value for ${k} contains a line break: ${JSON.stringify(value)}`);
    return `${k}\t${value}`;
  });
  return lines.join('\n') + '\n';
}

export async function writeRequestFile(file: string, entries: RequestEntries): Promise<void> {
  await writeFile(file, requestText(entries));
}

/**
 * A warm worker's request bundle (runner/java/src/repairlab/harness/Bundle.java): a header of `file` entries
 * (`offset<TAB>length<TAB>name`, byte offsets into the blob) and `request` entries naming each validation's request
 * file, an empty line, then the blob with every file's content. It travels on the worker's stdin, so a validation
 * writes nothing to disk.
 */
export function bundleOf(requests: string[], files: Array<[name: string, content: string]>): Buffer {
  const parts: Buffer[] = [];
  const header: RequestEntries = [];
  let offset = 0;
  for (const [name, content] of files) {
    const bytes = Buffer.from(content, 'utf8');
    header.push(['file', `${offset}\t${bytes.length}\t${name}`]);
    parts.push(bytes);
    offset += bytes.length;
  }
  for (const r of requests) header.push(['request', r]);
  return Buffer.concat([Buffer.from(`${requestText(header)}\n`, 'utf8'), ...parts]);
}
