// The readers of published results (worker/records/published-formats.ts) on the fixtures of test/fixtures/published/
// — HAFixAgent's and RepairAgent's published shapes — and on malformed files, which are refused naming the file and
// the field; and the published variant's cells in a report (worker/experiments/published-variant.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PublishedFormatError, parseCsv, readBirchCsv, readHafixResult, readPublishedFile, readRepairAgentPlausible, repairlabBugId } from '../../../worker/records/published-formats.ts';
import { withPublishedVariant } from '../../../worker/experiments/published-variant.ts';
import { bugAgreement, publishedRunId, refuseTwoFilesOfOneBug } from '../../../worker/experiments/published-import.ts';
import type { CellRecord, ExperimentRecord, ExperimentSpec } from '../../../worker/contracts/experiment.ts';
import type { TrajectoryHeader } from '../../../worker/records/persistence.ts';

const FIX = 'test/fixtures/published';
const read = (p: string) => readFileSync(`${FIX}/${p}`, 'utf8');

describe('published formats', () => {
  it('bug ids: Defects4J underscores and dashes become RepairLab ids', () => {
    expect(repairlabBugId('Cli_11')).toBe('Cli-11');
    expect(repairlabBugId('Cli-11')).toBe('Cli-11');
    expect(repairlabBugId('JacksonDatabind_1')).toBe('JacksonDatabind-1');
    expect(repairlabBugId('textkit_1')).toBe('textkit-1');
  });

  it("RepairAgent's plausible_patches: a mutant (one change, target_lines) and a write_fix (a list), 1-based lines, source-root paths", () => {
    const file = 'hafix-repairagent/textkit_1/plausible_patches/plausible_patches_textkit_1.json';
    const entries = readRepairAgentPlausible(read(file), file);
    expect(entries.map((e) => [e.bugId, e.sourceBugId, e.entry, e.source, e.publishedPlausible])).toEqual([
      ['textkit-1', 'textkit_1', 0, 'mutant', true],
      ['textkit-1', 'textkit_1', 1, 'write_fix', true],
    ]);
    expect(entries[0]!.patch).toEqual({ kind: 'write-fix', changes: [{ file_name: 'org/repairlab/textkit/Strings.java', insertions: [], deletions: [], modifications: [{ line_number: 58, modified_line: '        if (s.length() <= maxLength) {' }] }] });
  });

  it('an empty list is an attempted bug with no plausible patch; line ends inside published lines are dropped', () => {
    const empty = readPublishedFile('repairagent', '[]', 'x/plausible_patches_Cli_3.json');
    expect(empty).toEqual([expect.objectContaining({ bugId: 'Cli-3', patch: { kind: 'none' }, publishedPlausible: false })]);
    const withEnds = readRepairAgentPlausible(JSON.stringify([{ source: 'write_fix', patch: [{ file_name: 'A.java', insertions: [{ line_number: 3, new_lines: ['break;\n'] }], deletions: [], modifications: [{ line_number: 1, modified_line: 'x;\n' }] }] }]), 'plausible_patches_Cli_17.json');
    expect(withEnds[0]!.patch).toMatchObject({ changes: [{ insertions: [{ new_lines: ['break;'] }], modifications: [{ modified_line: 'x;' }] }] });
  });

  it("HAFixAgent's result: success and the diff; the golden patch is never read", () => {
    const file = 'hafix/textkit_1/textkit_1_1_result.json';
    const [e] = readHafixResult(read(file), file);
    expect(e).toMatchObject({ bugId: 'textkit-1', sourceBugId: 'textkit_1', source: 'hafixagent:baseline', publishedPlausible: true, info: { agent_steps: 9, model_calls: 9, model_cost: 0.0027, duration_seconds: 46 } });
    expect(e!.patch.kind).toBe('diff');
    expect(JSON.stringify(e)).not.toContain('never read');
  });

  it("BIRCH's CSV: one entry per bug, plausible when any attempt passed; quoted fields", () => {
    const entries = readBirchCsv(read('hafix-birch/test_results_mode_4_merged.csv'), 'b.csv');
    expect(entries.map((e) => [e.bugId, e.publishedPlausible, e.info.attempts, e.info.passes])).toEqual([
      ['textkit-1', true, 2, 1],
      ['numkit-1', false, 2, 0],
    ]);
    expect(parseCsv('a,"b,""c"""\r\n1,2\n')).toEqual([['a', 'b,"c"'], ['1', '2']]);
  });

  it('malformed files are refused naming the file and the field', () => {
    const refuse = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(PublishedFormatError);
        return (e as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refuse(() => readRepairAgentPlausible('[]', 'patches.json'))).toMatch(/^patches\.json: file name: expected plausible_patches_<Bug>\.json/);
    expect(refuse(() => readRepairAgentPlausible('{', 'plausible_patches_Cli_1.json'))).toMatch(/^plausible_patches_Cli_1\.json: \(whole file\): not JSON/);
    expect(refuse(() => readRepairAgentPlausible('[{"source":"x"}]', 'plausible_patches_Cli_1.json'))).toContain('[0].patch: missing');
    expect(refuse(() => readRepairAgentPlausible('[{"patch":{"file_name":"A.java","modifications":[{"line_number":"x","modified_line":"y"}]}}]', 'plausible_patches_Cli_1.json'))).toContain('[0].patch: changes[0].modifications[0].line_number must be a positive line number');
    expect(refuse(() => readHafixResult('{"project_name":"Cli","bug_id":"1","repair_result":{"success":"yes"}}', 'r.json'))).toContain('r.json: repair_result.success: expected true or false, got "yes"');
    expect(refuse(() => readHafixResult('{"bug_id":"1"}', 'r.json'))).toContain('r.json: project_name: missing');
    expect(refuse(() => readBirchCsv('bug,ok\nCli-1,Yes\n', 'b.csv'))).toContain('b.csv: column pass: missing from the header');
    expect(refuse(() => readBirchCsv('bug,pass,test_fail,compile_fail\nCli-1,maybe,No,No\n', 'b.csv'))).toContain('b.csv: row 2, column pass: expected Yes or No, got "maybe"');
  });
});

describe('agreement and the published variant in a report', () => {
  it('per bug: published plausible when any entry is, ours when any re-validated entry is', () => {
    const row = (bugId: string, entry: number, published: boolean, ours: boolean | null) => ({ runId: publishedRunId('v', bugId, entry), bugId, entry, source: 's', published, ours, agreement: ours === null ? null : ours === published });
    expect(bugAgreement([row('A-1', 0, true, true), row('A-1', 1, true, false), row('B-1', 0, true, false), row('C-1', 0, false, null)])).toEqual([
      { bugId: 'A-1', entries: 2, publishedPlausible: true, ourPlausible: true, agreement: true, disagreeingEntries: 1 },
      { bugId: 'B-1', entries: 1, publishedPlausible: true, ourPlausible: false, agreement: false, disagreeingEntries: 1 },
      { bugId: 'C-1', entries: 1, publishedPlausible: false, ourPlausible: null, agreement: null, disagreeingEntries: 0 },
    ]);
  });

  it('two files of one bug in one import are refused (the second would overwrite the first)', () => {
    const e = (file: string) => ({ bugId: 'Cli-11', sourceBugId: 'Cli_11', file, entry: 0, source: 's', patch: { kind: 'none' as const }, publishedPlausible: true, info: {} });
    expect(() => refuseTwoFilesOfOneBug([e('a/Cli_11_1_result.json'), e('a/Cli_11_5_result.json')])).toThrow(/Cli-11 is in two files \(a\/Cli_11_1_result.json and a\/Cli_11_5_result.json\)/);
    expect(() => refuseTwoFilesOfOneBug([e('x'), { ...e('x'), entry: 1 }])).not.toThrow();
  });

  it("cells: sample 0 is the bug's first plausible entry, else its first; a bug without an entry and later samples are not run", () => {
    const experiment = { id: 'e', cells: 4, bugs: [{ id: 'A-1' }, { id: 'B-1' }] } as unknown as ExperimentRecord;
    const spec = { samples: 2, variants: [{ name: 'local', preset: 'oneshot', variants: [], overrides: {} }] } as unknown as ExperimentSpec;
    const header = (bugId: string, entry: number, plausible: boolean) =>
      ({ runId: publishedRunId('pub', bugId, entry), bug: { id: bugId }, updatedAt: 't', outcome: { plausible }, published: { format: 'hafix-repairagent', variant: 'pub', entry, publishedPlausible: true, revalidated: true } }) as unknown as TrajectoryHeader;
    const joined = withPublishedVariant({ experiment, spec, cells: [] as CellRecord[] }, 'pub', [header('A-1', 0, false), header('A-1', 1, true)]);
    expect(joined.spec.variants.map((v) => [v.name, v.preset])).toEqual([['local', 'oneshot'], ['pub', 'published:hafix-repairagent']]);
    expect(joined.cells.map((c) => [c.index, c.bugId, c.sample, c.status, c.runId])).toEqual([
      [4, 'A-1', 0, 'plausible', 'published-pub-A-1-1'],
      [5, 'A-1', 1, 'not-run', undefined],
      [6, 'B-1', 0, 'not-run', undefined],
      [7, 'B-1', 1, 'not-run', undefined],
    ]);
    expect(joined.experiment.cells).toBe(8);
    expect(() => withPublishedVariant({ experiment, spec, cells: [] }, 'local', [header('A-1', 0, true)])).toThrow(/has a variant of that name/);
    expect(() => withPublishedVariant({ experiment, spec, cells: [] }, 'none', [])).toThrow(/no imported runs/);
  });
});
