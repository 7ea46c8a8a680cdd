// Raters' labels → agreement and the labels the metrics count. Per (bug, normalised patch): the resolved label is the
// explicit resolution when there is one, else the raters' common label when every rater who labelled it agrees
// (one rater alone included); raters who disagree leave it unresolved and listed among the disagreements. Agreement
// is Cohen's kappa with two raters (over the patches both labelled) and Fleiss' kappa with more (over the patches
// every rater labelled).
import { LABEL_VALUES, type LabelSet, type LabelValue } from '../contracts/patch-labels.ts';
import { cohenKappa, fleissKappa, type KappaResult } from './statistics/index.ts';

export const labelKey = (bugId: string, patchKey: string): string => `${bugId}\u0000${patchKey}`;

export interface Disagreement {
  bugId: string;
  patchKey: string;
  /** rater → label */
  labels: Record<string, LabelValue>;
  notes: Record<string, string>;
  /** the resolution, once someone decided */
  resolved?: LabelValue;
}

export interface Agreement {
  raters: string[];
  /** patches with at least one rater's label */
  labelledPatches: number;
  method: 'cohen' | 'fleiss' | null;
  kappa: KappaResult | null;
  /** why no kappa (fewer than two raters, no patch labelled by all of them) */
  note?: string;
  /** patches whose raters' labels differ (resolved or not) */
  disagreements: Disagreement[];
}

/** labelKey → the label the metrics count (resolved or unanimous). */
export function resolvedLabels(set: LabelSet): Map<string, LabelValue> {
  const byPatch = new Map<string, Set<LabelValue>>();
  for (const l of set.raterLabels) {
    const k = labelKey(l.bugId, l.patchKey);
    byPatch.set(k, (byPatch.get(k) ?? new Set()).add(l.label));
  }
  const out = new Map<string, LabelValue>();
  for (const [k, labels] of byPatch) if (labels.size === 1) out.set(k, [...labels][0]!);
  for (const r of set.resolved) out.set(labelKey(r.bugId, r.patchKey), r.label);
  return out;
}

export function agreement(set: LabelSet): Agreement {
  const raters = [...new Set(set.raterLabels.map((l) => l.rater))].sort();
  const byPatch = new Map<string, { bugId: string; patchKey: string; labels: Record<string, LabelValue>; notes: Record<string, string> }>();
  for (const l of set.raterLabels) {
    const k = labelKey(l.bugId, l.patchKey);
    const item = byPatch.get(k) ?? { bugId: l.bugId, patchKey: l.patchKey, labels: {}, notes: {} };
    item.labels[l.rater] = l.label;
    if (l.note) item.notes[l.rater] = l.note;
    byPatch.set(k, item);
  }
  const resolutions = new Map(set.resolved.map((r) => [labelKey(r.bugId, r.patchKey), r.label]));
  const disagreements = [...byPatch.entries()]
    .filter(([, item]) => new Set(Object.values(item.labels)).size > 1)
    .map(([k, item]) => ({ ...item, ...(resolutions.has(k) ? { resolved: resolutions.get(k)! } : {}) }));
  const base = { raters, labelledPatches: byPatch.size, disagreements };
  if (raters.length < 2) return { ...base, method: null, kappa: null, note: raters.length ? 'one rater: no agreement to measure' : 'no labels yet' };
  const complete = [...byPatch.values()].filter((item) => raters.every((r) => item.labels[r] !== undefined));
  if (!complete.length) return { ...base, method: raters.length === 2 ? 'cohen' : 'fleiss', kappa: null, note: `no patch was labelled by all ${raters.length} raters yet` };
  if (raters.length === 2) return { ...base, method: 'cohen', kappa: cohenKappa(complete.map((i) => i.labels[raters[0]!]!), complete.map((i) => i.labels[raters[1]!]!)) };
  const counts = complete.map((item) => LABEL_VALUES.map((v) => raters.filter((r) => item.labels[r] === v).length));
  return { ...base, method: 'fleiss', kappa: fleissKappa(counts) };
}
