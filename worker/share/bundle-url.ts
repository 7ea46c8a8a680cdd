// Links that point to a bundle (docs/formats/bundle.md, "Links that point to a bundle"): the address a user gives
// for the bundle they will put online, checked before it goes into a link, and the check that a bundle fetched for a
// link is the very one the link was made with (its content hash) before anything of it is stored.
import { BundleError } from '../contracts/bundle.ts';
import { LinkError } from './link-codec.ts';

/**
 * The address where a bundle will be fetched from, as a link keeps it: an absolute http(s) URL without credentials
 * (a fragment is dropped: fetching ignores it). Anything else is refused with what is wrong and what to give instead.
 */
export function parseBundleUrl(text: string): string {
  const given = text.trim();
  if (!given) throw new LinkError('give the address where you will put the bundle, such as https://example.org/experiment.rlbundle.json.gz.');
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new LinkError(`${JSON.stringify(given)} is not a whole address: give one that starts with https:// (or http://), such as https://example.org/experiment.rlbundle.json.gz.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new LinkError(`${JSON.stringify(given)} is a ${url.protocol.replace(/:$/, '')} address: a link can only point to an https:// or http:// address a browser can fetch.`);
  }
  if (url.username || url.password) {
    throw new LinkError(`${JSON.stringify(`${url.protocol}//${url.host}${url.pathname}`)} carries a user name or password: a link never carries credentials — put the bundle where anyone can fetch it without them.`);
  }
  url.hash = '';
  return url.href;
}

/** Refuses a bundle whose hash is not the one the link expects (naming both), so a different file is never imported. */
export function refuseUnexpectedBundle(source: string, expected: string, actual: string): void {
  if (expected === actual) return;
  throw new BundleError(
    `${source} is not the bundle this link points to: the link expects sha256 ${expected}, the file has sha256 ${actual}. ` +
      'Nothing was imported: ask whoever shared the link for the file it was made with (or a new link).',
  );
}
