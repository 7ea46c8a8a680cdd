// The realistic candidate set of `bench validation --candidates realistic`: what an agent's validations of one bug
// look like — the developer fix, wrong edits at the fault lines (most fail, some do not compile), the fix again laid
// out differently or commented (another sample's near-duplicate), and exact repeats.
import { changedLines, MUTATIONS, type BenchSubject } from './validation.ts';

export type CandidateKind = 'fix' | 'mutant' | 'near-duplicate' | 'exact-duplicate';

export interface Candidate {
  kind: CandidateKind;
  /** what it is, for the per-candidate table */
  label: string;
  /** path → content */
  overlay: Record<string, string>;
}

export const REALISTIC_SIZE = 30;

/** The same program laid out differently, none splitting a line (the runner then shares the verdict exactly). */
const RELAYOUTS: Array<[string, (source: string) => string]> = [
  ['re-indented with tabs', (s) => s.replace(/^( {2})+/gm, (m) => '\t'.repeat(m.length / 2))],
  ['a header comment', (s) => `// candidate from another sample\n/* tried: the fix */\n${s}`],
  ['end-of-line comments', (s) => s.replace(/;\n/g, '; // ok\n')],
  ['trailing spaces and blank lines', (s) => s.replace(/\n/g, '  \n').replace(/\{ {2}\n/g, '{\n\n')],
];

/**
 * The fix, up to 20 single-operator or literal mutations of the lines the fix changed and their neighbours (and the
 * buggy file itself: an agent's edit that changed nothing that matters), near-duplicates of the fix and of the first
 * mutants, and exact repeats, REALISTIC_SIZE in all.
 */
export function realisticCandidates(subject: BenchSubject, buggy: Record<string, string>): Candidate[] {
  const fix: Candidate = { kind: 'fix', label: 'developer fix', overlay: subject.fix };
  const mutants: Candidate[] = [];
  const seen = new Set<string>([JSON.stringify(subject.fix)]);
  const add = (overlay: Record<string, string>, label: string) => {
    const key = JSON.stringify(overlay);
    if (seen.has(key) || mutants.length >= 20) return;
    seen.add(key);
    mutants.push({ kind: 'mutant', label, overlay });
  };
  for (const [file, fixed] of Object.entries(subject.fix)) {
    const lines = fixed.split('\n');
    const changed = changedLines(buggy[file] ?? '', fixed);
    const near = [...new Set(changed.flatMap((i) => [0, 1, -1, 2, -2, 3, -3].map((d) => i + d)))].filter((i) => i >= 0 && i < lines.length);
    for (const i of near) {
      if (/^\s*(\/\/|\*|\/\*)/.test(lines[i]!)) continue;
      for (const [re, rep] of MUTATIONS) {
        if (!re.test(lines[i]!)) continue;
        const mutated = [...lines];
        mutated[i] = lines[i]!.replace(re, rep);
        if (mutated[i] !== lines[i]) add({ ...subject.fix, [file]: mutated.join('\n') }, `${file.split('/').pop()}:${i + 1} ${re.source} → ${rep}`);
      }
    }
  }
  add(Object.fromEntries(Object.keys(subject.fix).map((f) => [f, buggy[f] ?? ''])), 'the buggy version (no effective change)');
  const out: Candidate[] = [fix, ...mutants.slice(0, 18)];
  const nearOf = (c: Candidate, k: number): Candidate => {
    const [name, relayout] = RELAYOUTS[k % RELAYOUTS.length]!;
    return { kind: 'near-duplicate', label: `${c.kind === 'fix' ? 'the fix' : c.label}, ${name}`, overlay: Object.fromEntries(Object.entries(c.overlay).map(([f, s]) => [f, relayout(s)])) };
  };
  for (let k = 0; k < RELAYOUTS.length; k++) out.push(nearOf(fix, k));
  for (let k = 0; out.length < REALISTIC_SIZE - 4 && k < mutants.length; k++) out.push(nearOf(mutants[k]!, k));
  // exact repeats: the fix twice (other samples that found it), then the first mutants again
  const repeat = (c: Candidate) => out.push({ kind: 'exact-duplicate', label: `${c.kind === 'fix' ? 'the fix' : c.label}, again`, overlay: c.overlay });
  repeat(fix);
  repeat(fix);
  for (let k = 0; out.length < REALISTIC_SIZE; k++) repeat(k < mutants.length ? mutants[k]! : fix);
  return out;
}
