// How large a validation's overlay (the changed files' new contents) may be. Shared by the runner, which refuses a
// larger overlay with 413 before any compilation, and by the agent's patch application, which refuses a model's
// diff that would make one (docs/runner-api.md "HTTP limits and errors").
//
// Why these numbers: real projects' sources are far smaller. The largest .java among this repository's fixtures
// (public/benchmarks) is 4 KB; among Defects4J's projects the largest are a few hundred KB (commons-math's
// FastMathLiteralArrays.java ~230 KB, today's commons-lang StringUtils.java ~390 KB). 2 MB per file leaves five times
// that; 8 MB lets one patch rewrite twenty such files. Past that the overlay is generated or vendored text, not a
// repair, and compiling it costs a minute: a 12 MB source took javac 10–70 s only to fail (issue 27).

const MB = 1024 * 1024;

/** Largest changed file of an overlay, in UTF-8 bytes. */
export const MAX_OVERLAY_FILE_BYTES = 2 * MB;
/** Largest overlay (all its changed files together), in UTF-8 bytes. */
export const MAX_OVERLAY_BYTES = 8 * MB;

export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

/** "12.0 MB (12582912 bytes)" */
export function describeBytes(n: number): string {
  return `${(n / MB).toFixed(1)} MB (${n} bytes)`;
}

export interface OverlayTooLarge {
  message: string;
  limitBytes: number;
  sizeBytes: number;
  /** the file over the per-file limit (absent when the whole overlay is over its limit) */
  file?: string;
}

/** Why an overlay is over a limit (the message names the limit, the size seen and what to do), or null. */
export function overlayTooLarge(overlay: Record<string, string | null | undefined>): OverlayTooLarge | null {
  let total = 0;
  for (const [file, content] of Object.entries(overlay)) {
    if (typeof content !== 'string') continue;
    const size = utf8Bytes(content);
    if (size > MAX_OVERLAY_FILE_BYTES) {
      return {
        message: `the overlay's file "${file}" is ${describeBytes(size)}, over the limit of ${MAX_OVERLAY_FILE_BYTES / MB} MB per changed file (${MAX_OVERLAY_BYTES / MB} MB per validation). Send only the files the patch changes; a generated or vendored file this large belongs in the snapshot, not in a patch.`,
        limitBytes: MAX_OVERLAY_FILE_BYTES,
        sizeBytes: size,
        file,
      };
    }
    total += size;
  }
  if (total > MAX_OVERLAY_BYTES) {
    return {
      message: `the overlay's changed files add up to ${describeBytes(total)}, over the limit of ${MAX_OVERLAY_BYTES / MB} MB per validation (${MAX_OVERLAY_FILE_BYTES / MB} MB per file). Send only the files the patch changes, or validate them in smaller patches.`,
      limitBytes: MAX_OVERLAY_BYTES,
      sizeBytes: total,
    };
  }
  return null;
}
