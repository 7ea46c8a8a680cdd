// Share links: a LinkState as a URL fragment `rl<version>.<base64url>`, where the bytes are a 6-byte checksum
// (the start of the SHA-256 of the JSON) followed by the JSON compressed with deflate-raw. The checksum is there
// because deflate-raw has none: a link damaged in copying must be refused, never restore a different view.
// Runs in the page, the worker and Node (no Node-only API). docs/formats/bundle.md, "Links".
import { sha256 } from '@noble/hashes/sha2.js';
import { findKeyLike, parseExperimentSpec } from '../contracts/experiment.ts';
import { resolveStrategy } from '../strategies/presets/index.ts';
import { compress, decompress, fromBase64Url, toBase64Url, type CompressionBackend } from './compression.ts';
import { LinkState, type LinkStateInput } from './link-state.ts';

export const LINK_VERSION = 1;
/** Above this a link is refused and a bundle asked for: browsers, chat tools and mail clients cut longer URLs. */
export const MAX_LINK_CHARS = 8000;
const CHECK_BYTES = 6;

/** A link that cannot be made or read; the message names what is wrong and what to do. */
export class LinkError extends Error {
  override name = 'LinkError';
}

/** The state is valid but its link would be longer than MAX_LINK_CHARS: the caller may share less, or a bundle. */
export class LinkTooLongError extends LinkError {
  override name = 'LinkTooLongError';
  constructor(
    message: string,
    readonly length: number,
  ) {
    super(message);
  }
}

export interface LinkOptions {
  /** default `native` (CompressionStream where the platform has deflate-raw) */
  backend?: CompressionBackend;
}

const checksum = (bytes: Uint8Array) => sha256(bytes).subarray(0, CHECK_BYTES);

/** The fragment (without `#`) that restores `state`. Refuses a key anywhere, an invalid state, and a link over MAX_LINK_CHARS. */
export async function encodeLink(state: LinkStateInput, opts: LinkOptions = {}): Promise<string> {
  refuseKeys(state, 'cannot make the link');
  parseLinkState(state, 'the link');
  const json = new TextEncoder().encode(JSON.stringify(state));
  const deflated = await compress(json, 'deflate-raw', opts.backend);
  const bytes = new Uint8Array(CHECK_BYTES + deflated.length);
  bytes.set(checksum(json));
  bytes.set(deflated, CHECK_BYTES);
  const fragment = `rl${LINK_VERSION}.${toBase64Url(bytes)}`;
  if (fragment.length > MAX_LINK_CHARS) {
    throw new LinkTooLongError(
      `the link would be ${fragment.length} characters, over the ${MAX_LINK_CHARS} a link may have: share a bundle instead ` +
        '(`repairlab experiment bundle <id>`, or the app\'s bundle export) and link to it with ?bundle=<url>.',
      fragment.length,
    );
  }
  return fragment;
}

/** The state of a link: a fragment, `#fragment`, or a whole URL. Refuses unknown versions and damaged or invalid links by name. */
export async function decodeLink(link: string, opts: LinkOptions = {}): Promise<LinkState> {
  const hash = link.indexOf('#');
  const fragment = (hash >= 0 ? link.slice(hash + 1) : link).trim();
  const m = /^rl(\d+)\.([\s\S]*)$/.exec(fragment);
  if (!m) throw new LinkError(`not a RepairLab link: its fragment should start with "rl${LINK_VERSION}." but starts with ${JSON.stringify(fragment.slice(0, 12))}.`);
  const version = Number(m[1]);
  if (version !== LINK_VERSION) {
    throw new LinkError(
      version > LINK_VERSION
        ? `link version ${version} is newer than this RepairLab reads (version ${LINK_VERSION}): open it with a newer RepairLab.`
        : `link version ${version} is not one RepairLab ever made (this one reads version ${LINK_VERSION}).`,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = fromBase64Url(m[2]!);
  } catch (e) {
    throw new LinkError(`the link is damaged: ${(e as Error).message}. Copy the whole link again.`);
  }
  if (bytes.length <= CHECK_BYTES) throw new LinkError('the link is damaged: it is too short to hold a view. Copy the whole link again.');
  let json: Uint8Array;
  try {
    json = await decompress(bytes.subarray(CHECK_BYTES), 'deflate-raw', opts.backend);
  } catch {
    throw new LinkError('the link is damaged: its data does not decompress (was it cut short or changed when copied?). Copy the whole link again.');
  }
  if (!checksum(json).every((b, i) => b === bytes[i])) {
    throw new LinkError('the link is damaged: its checksum does not match its content (a character was changed). Copy the whole link again.');
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
  } catch (e) {
    throw new LinkError(`the link holds no valid JSON (${(e as Error).message}).`);
  }
  refuseKeys(value, 'refusing the link');
  return parseLinkState(value, 'the link');
}

function refuseKeys(value: unknown, doing: string): void {
  const keyLike = findKeyLike(value);
  if (keyLike) throw new LinkError(`${doing}: ${keyLike}. A link never carries a key: remove it (the key stays in Settings, or the environment of the CLI).`);
}

/**
 * Checks a state with the contracts' own strict schemas: the LinkState, the ExperimentSpec, and every strategy it
 * names resolved as a run would (unknown preset, variant or override key refused by name).
 */
export function parseLinkState(value: unknown, source: string): LinkState {
  const experiment = (value as { experiment?: unknown } | null)?.experiment;
  if (experiment !== undefined) {
    try {
      parseExperimentSpec(experiment, `${source}'s experiment`);
    } catch (e) {
      throw new LinkError((e as Error).message);
    }
  }
  const r = LinkState.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const where = issue.path.join('.') || '(top level)';
    const what = issue.code === 'unrecognized_keys' ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}` : issue.message;
    throw new LinkError(`${source} is not a valid RepairLab link state (version ${LINK_VERSION}): ${where}: ${what} (see docs/formats/bundle.md, "Links").`);
  }
  const state = r.data;
  const strategies = [
    ...(state.config ? [{ label: 'config', ...state.config }] : []),
    ...(state.experiment?.variants.map((v) => ({ label: `experiment variant ${v.name}`, ...v })) ?? []),
  ];
  for (const s of strategies) {
    try {
      resolveStrategy(s.preset, { variants: s.variants, overrides: s.overrides });
    } catch (e) {
      throw new LinkError(`${source}'s ${s.label}: ${(e as Error).message}`);
    }
  }
  return state;
}
