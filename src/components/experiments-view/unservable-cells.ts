// Before an experiment starts: the cells its model endpoint cannot serve, when that endpoint is a demo recording. A
// recording replays one conversation — one bug, preset, variants and overrides (src/state/demo-recordings.ts) — so
// every other (variant, bug) pair asks it a prompt it has never seen, and its cells end in an infrastructure error.
// The estimate names them so nobody starts an experiment whose numbers are errors.
import type { DemoRecording } from '../../state/settings.ts';
import { demoMismatch } from '../../state/demo-recordings.ts';
import { endpointOrigin } from '../../../worker/llm/key-origin.ts';

export interface SpecVariantLike {
  name: string;
  preset: string;
  variants?: readonly string[];
  overrides?: Record<string, unknown>;
}

export interface UnservableCell {
  variant: string;
  bugId: string;
  /** why, in words (demoMismatch) */
  reason: string;
}

/** Every (variant, bug) pair the recording cannot serve, in cell order (bug, then variant). */
export function unservableCells(demo: DemoRecording, variants: readonly SpecVariantLike[], bugIds: readonly string[]): UnservableCell[] {
  return bugIds.flatMap((bugId) =>
    variants.flatMap((v) => {
      const reason = demoMismatch(demo, { bugId, preset: v.preset, variants: v.variants ?? [], overrides: v.overrides ?? {} });
      return reason ? [{ variant: v.name, bugId, reason }] : [];
    }),
  );
}

/** Whether two endpoints are the same server (origin and path, a trailing slash aside): the demo applies to the spec's endpoint only. */
export function sameEndpoint(a: string, b: string): boolean {
  const path = (u: string) => {
    try {
      return new URL(u).pathname.replace(/\/+$/, '');
    } catch {
      return u;
    }
  };
  return endpointOrigin(a) !== undefined && endpointOrigin(a) === endpointOrigin(b) && path(a) === path(b);
}
