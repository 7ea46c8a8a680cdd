// A direct reader for git packfiles (objects/pack/*.idx + *.pack), used by RepoSession for the hot reads of
// blame (commits, trees, blobs). isomorphic-git's readObject works too, but per call it re-creates its fs
// wrapper, looks for a loose object, lists the pack directory and inflates with a JS zlib; reading the
// pack directly with fflate's inflate and caching resolved delta bases makes blame several times faster.
// Objects not found in a pack (loose objects of an on-disk repository) fall back to isomorphic-git.
import { inflateSync } from 'fflate';
import type { IsoFs } from '../contracts/platform.ts';

export type PackObjectType = 'commit' | 'tree' | 'blob' | 'tag';

const TYPES: Record<number, PackObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const OFS_DELTA = 6;
const REF_DELTA = 7;
/** Resolved objects kept for reuse as delta bases (bytes). */
const CACHE_BUDGET = 96 * 1024 * 1024;

const HEX_DIGITS = [...'0123456789abcdef'].map((c) => c.charCodeAt(0));
const hexCodes: number[] = new Array(40);

/** The 20-byte object name at `start` as 40 hex digits, one flat string (a `+=` chain leaves a rope of 20 pieces). */
function hex(bytes: Uint8Array, start: number): string {
  for (let i = 0; i < 20; i++) {
    const b = bytes[start + i]!;
    hexCodes[2 * i] = HEX_DIGITS[b >> 4]!;
    hexCodes[2 * i + 1] = HEX_DIGITS[b & 15]!;
  }
  return String.fromCharCode.apply(null, hexCodes);
}

interface Pack {
  bytes: Uint8Array;
  index: PackIndex;
}

/**
 * A version-2 pack index, searched where it lies (git's own way: fan-out table, then binary search over the
 * sorted object names). A Map of hex names cost ~900 bytes per object — 250 MB for closure-compiler's 281,726.
 */
export class PackIndex {
  private readonly view: DataView;
  private readonly count: number;
  private readonly shaStart: number;
  private readonly offStart: number;
  private readonly largeStart: number;
  private readonly want = new Uint8Array(20);

  constructor(private readonly idx: Uint8Array) {
    this.view = new DataView(idx.buffer, idx.byteOffset, idx.byteLength);
    if (idx.length < 8 + 256 * 4 || this.view.getUint32(0) !== 0xff744f63 || this.view.getUint32(4) !== 2) {
      throw new Error('unsupported pack index (only version 2)');
    }
    this.count = this.view.getUint32(8 + 255 * 4);
    this.shaStart = 8 + 256 * 4;
    this.offStart = this.shaStart + this.count * 24;
    this.largeStart = this.offStart + this.count * 4;
    if (idx.length < this.largeStart) throw new Error('pack index is cut short');
  }

  get size(): number {
    return this.count;
  }

  /** The pack offset of `oid` (40 hex digits), or undefined when this pack lacks it. */
  offsetOf(oid: string): number | undefined {
    if (oid.length !== 40) return undefined;
    const want = this.want;
    for (let i = 0; i < 20; i++) {
      const byte = parseInt(oid.slice(2 * i, 2 * i + 2), 16);
      if (Number.isNaN(byte)) return undefined;
      want[i] = byte;
    }
    const first = want[0]!;
    let lo = first === 0 ? 0 : this.view.getUint32(8 + (first - 1) * 4);
    let hi = this.view.getUint32(8 + first * 4);
    const idx = this.idx;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.shaStart + mid * 20;
      let cmp = 0;
      for (let i = 0; i < 20 && cmp === 0; i++) cmp = idx[at + i]! - want[i]!;
      if (cmp === 0) return this.offsetAt(mid);
      if (cmp < 0) lo = mid + 1;
      else hi = mid;
    }
    return undefined;
  }

  private offsetAt(i: number): number {
    const offset = this.view.getUint32(this.offStart + i * 4);
    if (!(offset & 0x80000000)) return offset;
    const j = offset & 0x7fffffff;
    return this.view.getUint32(this.largeStart + j * 8) * 2 ** 32 + this.view.getUint32(this.largeStart + j * 8 + 4);
  }
}

/** Applies a git delta (copy/insert instructions) to `base`. */
function applyDelta(delta: Uint8Array, base: Uint8Array): Uint8Array {
  let pos = 0;
  const varint = () => {
    let result = 0;
    let shift = 1;
    let c: number;
    do {
      c = delta[pos++]!;
      result += (c & 0x7f) * shift;
      shift *= 128;
    } while (c & 0x80);
    return result;
  };
  const baseSize = varint();
  if (baseSize !== base.length) throw new Error(`delta base is ${base.length} bytes, expected ${baseSize}`);
  const out = new Uint8Array(varint());
  let o = 0;
  while (pos < delta.length) {
    const op = delta[pos++]!;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      if (op & 0x01) offset |= delta[pos++]!;
      if (op & 0x02) offset |= delta[pos++]! << 8;
      if (op & 0x04) offset |= delta[pos++]! << 16;
      if (op & 0x08) offset += delta[pos++]! * 2 ** 24;
      if (op & 0x10) size |= delta[pos++]!;
      if (op & 0x20) size |= delta[pos++]! << 8;
      if (op & 0x40) size |= delta[pos++]! << 16;
      if (size === 0) size = 0x10000;
      out.set(base.subarray(offset, offset + size), o);
      o += size;
    } else if (op > 0) {
      out.set(delta.subarray(pos, pos + op), o);
      o += op;
      pos += op;
    } else {
      throw new Error('invalid delta opcode 0');
    }
  }
  if (o !== out.length) throw new Error('delta result has the wrong size');
  return out;
}

export class PackReader {
  private readonly cache = new Map<string, { type: PackObjectType; data: Uint8Array }>();
  private cached = 0;

  private constructor(private readonly packs: Pack[]) {}

  /** Opens every pack of a git dir (undefined when there is none). */
  static async open(fs: IsoFs, gitdir: string): Promise<PackReader | undefined> {
    let names: string[];
    try {
      names = await fs.promises.readdir(`${gitdir}/objects/pack`);
    } catch {
      return undefined;
    }
    const packs: Pack[] = [];
    for (const name of names.filter((n) => n.endsWith('.idx')).sort()) {
      const base = `${gitdir}/objects/pack/${name.slice(0, -4)}`;
      const [idx, bytes] = await Promise.all([fs.promises.readFile(`${base}.idx`), fs.promises.readFile(`${base}.pack`)]);
      packs.push({ bytes: bytes as Uint8Array, index: new PackIndex(idx as Uint8Array) });
    }
    return packs.length ? new PackReader(packs) : undefined;
  }

  has(oid: string): boolean {
    return this.packs.some((p) => p.index.offsetOf(oid) !== undefined);
  }

  /** The object's type and content, or undefined when no pack holds it. */
  read(oid: string): { type: PackObjectType; data: Uint8Array } | undefined {
    for (const pack of this.packs) {
      const offset = pack.index.offsetOf(oid);
      if (offset !== undefined) return this.readAt(pack, offset);
    }
    return undefined;
  }

  private readAt(pack: Pack, offset: number): { type: PackObjectType; data: Uint8Array } {
    const key = `${this.packs.indexOf(pack)}:${offset}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const bytes = pack.bytes;
    let pos = offset;
    let c = bytes[pos++]!;
    const typeCode = (c >> 4) & 7;
    let size = c & 15;
    let shift = 16;
    while (c & 0x80) {
      c = bytes[pos++]!;
      size += (c & 0x7f) * shift;
      shift *= 128;
    }
    let base: { type: PackObjectType; data: Uint8Array } | undefined;
    if (typeCode === OFS_DELTA) {
      c = bytes[pos++]!;
      let back = c & 0x7f;
      while (c & 0x80) {
        c = bytes[pos++]!;
        back = (back + 1) * 128 + (c & 0x7f);
      }
      base = this.readAt(pack, offset - back);
    } else if (typeCode === REF_DELTA) {
      const baseOid = hex(bytes, pos);
      pos += 20;
      base = this.read(baseOid);
      if (!base) throw new Error(`pack delta base ${baseOid} is missing`);
    }
    // zlib stream: skip the 2-byte header and inflate the raw deflate data into a buffer of the known size.
    const raw = size === 0 ? new Uint8Array(0) : inflateSync(bytes.subarray(pos + 2), { out: new Uint8Array(size) });
    let result: { type: PackObjectType; data: Uint8Array };
    if (base) result = { type: base.type, data: applyDelta(raw, base.data) };
    else {
      const type = TYPES[typeCode];
      if (!type) throw new Error(`unknown pack object type ${typeCode} at offset ${offset}`);
      result = { type, data: raw };
    }
    if (this.cached + result.data.length > CACHE_BUDGET) {
      this.cache.clear();
      this.cached = 0;
    }
    this.cache.set(key, result);
    this.cached += result.data.length;
    return result;
  }
}

const decoder = new TextDecoder();

export interface RawTreeEntry {
  mode: string;
  name: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

/**
 * Walks git's tree format, "<mode> <name>\0<20-byte oid>" entries, handing each entry's bounds to `visit` until it
 * returns a value; decoding is left to `decodeEntry`, so a lookup by name decodes one entry, not all of them.
 */
function scanTree<T>(data: Uint8Array, visit: (pos: number, space: number, nul: number) => T | undefined): T | undefined {
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    const nul = space < 0 ? -1 : data.indexOf(0, space);
    if (nul < 0) return undefined;
    const found = visit(pos, space, nul);
    if (found !== undefined) return found;
    pos = nul + 21;
  }
  return undefined;
}

/** One entry, its mode normalised as isomorphic-git does ('40000' → '040000'). */
function decodeEntry(data: Uint8Array, pos: number, space: number, nul: number): RawTreeEntry {
  let mode = decoder.decode(data.subarray(pos, space));
  if (mode.length === 5) mode = `0${mode}`;
  const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
  return { mode, name: decoder.decode(data.subarray(space + 1, nul)), oid: hex(data, nul + 1), type };
}

/** Every entry of a raw tree, in its order. */
export function parseTree(data: Uint8Array): RawTreeEntry[] {
  const out: RawTreeEntry[] = [];
  scanTree(data, (pos, space, nul) => void out.push(decodeEntry(data, pos, space, nul)));
  return out;
}

/**
 * One entry of a raw tree, found by its name's bytes without decoding the others (git's own lookup): blame asks
 * for one name per directory per commit, and parsing every entry of a 1,500-entry directory each time was most
 * of its time on closure-compiler.
 */
export function findTreeEntry(data: Uint8Array, name: Uint8Array): RawTreeEntry | undefined {
  return scanTree(data, (pos, space, nul) => {
    if (nul - space - 1 !== name.length) return undefined;
    for (let i = 0; i < name.length; i++) if (data[space + 1 + i] !== name[i]) return undefined;
    return decodeEntry(data, pos, space, nul);
  });
}

export interface ParsedPerson {
  name: string;
  email: string;
  timestamp: number;
  timezoneOffset: number;
}

function parsePerson(value: string): ParsedPerson {
  const m = /^(.*) <(.*)> (\d+) ([+-])(\d\d)(\d\d)$/.exec(value);
  if (!m) return { name: value, email: '', timestamp: 0, timezoneOffset: 0 };
  const minutes = Number(m[5]) * 60 + Number(m[6]);
  // isomorphic-git's convention (like JS Date#getTimezoneOffset): minutes to ADD to local time to get UTC.
  const offset = m[4] === '+' ? -minutes : minutes;
  return { name: m[1]!, email: m[2]!, timestamp: Number(m[3]), timezoneOffset: offset === 0 ? 0 : offset };
}

/** git's commit format: header lines (continuations start with a space), a blank line, the message. */
export function parseCommit(data: Uint8Array): { tree: string; parents: string[]; author: ParsedPerson; committer: ParsedPerson; message: string } {
  const text = decoder.decode(data);
  const split = text.indexOf('\n\n');
  const headers = (split < 0 ? text : text.slice(0, split)).split('\n');
  const message = split < 0 ? '' : text.slice(split + 2);
  let tree = '';
  const parents: string[] = [];
  let author: ParsedPerson | undefined;
  let committer: ParsedPerson | undefined;
  for (const line of headers) {
    if (line.startsWith(' ')) continue;
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'tree') tree = value;
    else if (key === 'parent') parents.push(value);
    else if (key === 'author') author = parsePerson(value);
    else if (key === 'committer') committer = parsePerson(value);
  }
  const nobody = { name: '', email: '', timestamp: 0, timezoneOffset: 0 };
  return { tree, parents, author: author ?? committer ?? nobody, committer: committer ?? author ?? nobody, message };
}
