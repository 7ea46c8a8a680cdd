// Git bundle files (`git bundle create`): a text header listing refs and prerequisites, then a packfile.
// Format: https://git-scm.com/docs/gitformat-bundle (v2 and v3; v3 adds @capability lines).

export interface BundleRef {
  name: string;
  oid: string;
}

export interface ParsedBundle {
  version: 2 | 3;
  refs: BundleRef[];
  /** Commits the pack assumes are already present (a shallow / incremental bundle). */
  prerequisites: string[];
  /** Byte offset where the packfile starts. */
  packOffset: number;
}

export class GitBundleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitBundleError';
  }
}

const V2 = '# v2 git bundle\n';
const V3 = '# v3 git bundle\n';
const SHA1 = /^[0-9a-f]{40}$/;
const SHA256 = /^[0-9a-f]{64}$/;

/** Reads a bundle header; refuses what RepairLab cannot store (shallow bundles, SHA-256, filtered packs). */
export function parseBundleHeader(bytes: Uint8Array, label = 'the bundle'): ParsedBundle {
  const magicLength = V2.length;
  const magic = new TextDecoder().decode(bytes.subarray(0, magicLength));
  let version: 2 | 3;
  if (magic === V2) version = 2;
  else if (magic === V3) version = 3;
  else if (magic.startsWith('PACK')) {
    throw new GitBundleError(`${label} is a bare packfile, not a bundle: import it as a pack, or create a bundle with \`git bundle create repo.bundle --all\`.`);
  } else {
    throw new GitBundleError(`${label} is not a git bundle (no "# v2/v3 git bundle" header): create one with \`git bundle create repo.bundle --all\`.`);
  }
  const refs: BundleRef[] = [];
  const prerequisites: string[] = [];
  let pos = magicLength;
  for (;;) {
    const end = bytes.indexOf(0x0a, pos);
    if (end < 0) throw new GitBundleError(`${label} is truncated inside its header: re-create or re-download it.`);
    const line = new TextDecoder().decode(bytes.subarray(pos, end));
    pos = end + 1;
    if (line === '') break;
    if (line.startsWith('@')) {
      if (version !== 3) throw new GitBundleError(`${label} has a capability line in a v2 header: the file is corrupt.`);
      const [key, value] = line.slice(1).split('=', 2);
      if (key === 'object-format' && value !== 'sha1') {
        throw new GitBundleError(`${label} uses object format ${value}: RepairLab (isomorphic-git) stores SHA-1 repositories only.`);
      }
      if (key === 'filter') {
        throw new GitBundleError(`${label} is a filtered (partial) bundle (${line}): create a full one with \`git bundle create repo.bundle --all\`.`);
      }
      continue;
    }
    if (line.startsWith('-')) {
      const oid = line.slice(1).split(' ', 1)[0] ?? '';
      prerequisites.push(oid);
      continue;
    }
    const space = line.indexOf(' ');
    const oid = space < 0 ? line : line.slice(0, space);
    const name = space < 0 ? '' : line.slice(space + 1);
    if (SHA256.test(oid)) throw new GitBundleError(`${label} lists SHA-256 object ids: RepairLab (isomorphic-git) stores SHA-1 repositories only.`);
    if (!SHA1.test(oid) || !name) throw new GitBundleError(`${label} has a malformed ref line ${JSON.stringify(line.slice(0, 120))}: the file is corrupt.`);
    refs.push({ name, oid });
  }
  if (prerequisites.length > 0) {
    throw new GitBundleError(
      `${label} needs ${prerequisites.length} prerequisite commit(s) (a shallow or incremental bundle); blame needs full history: ` +
        'create it with `git bundle create repo.bundle --all` from a full (unshallow) clone.',
    );
  }
  if (refs.length === 0) throw new GitBundleError(`${label} contains no refs: create it with \`git bundle create repo.bundle --all\`.`);
  return { version, refs, prerequisites, packOffset: pos };
}

/** Checks a packfile's magic and trailing SHA-1 so a truncated or bit-flipped pack is refused before it is stored. */
export async function verifyPack(pack: Uint8Array, label = 'the pack'): Promise<{ objects: number; checksum: string }> {
  if (pack.length < 32 || new TextDecoder().decode(pack.subarray(0, 4)) !== 'PACK') {
    throw new GitBundleError(`${label} does not start with a packfile: the file is corrupt or truncated.`);
  }
  const view = new DataView(pack.buffer, pack.byteOffset, pack.byteLength);
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3) throw new GitBundleError(`${label} has unsupported pack version ${version}.`);
  const objects = view.getUint32(8);
  const body = pack.subarray(0, pack.length - 20);
  const trailer = toHex(pack.subarray(pack.length - 20));
  const digest = toHex(new Uint8Array(await crypto.subtle.digest('SHA-1', body as Uint8Array<ArrayBuffer>)));
  if (digest !== trailer) {
    throw new GitBundleError(`${label} fails its SHA-1 checksum (the file is corrupt or truncated): re-create or re-download it.`);
  }
  return { objects, checksum: trailer };
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}
