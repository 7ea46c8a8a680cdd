// Passerine's trajectory smells and the command classification under them, on real trajectories (the loop with the
// real Passerine and HAFixAgent tools over the demo project). Expected counts are worked out from each script.
import { describe, expect, it } from 'vitest';
import { splitBash, stepCommand } from '../../../../worker/experiments/metrics/commands.ts';
import { trajectorySmells } from '../../../../worker/experiments/metrics/smells.ts';
import type { Trajectory } from '../../../../worker/contracts/trajectory.ts';
import { scriptedRun, SCRIPTS, SRC } from './runs.ts';

const say = (thought: string, action: string) => `THOUGHT: ${thought}\nACTION: ${action}`;
const smellsOf = (t: Trajectory) => trajectorySmells(t.steps.map(stepCommand));
const bash = (command: string) => `THOUGHT: next\n\n\`\`\`bash\n${command}\n\`\`\``;

describe('Passerine smells on Passerine trajectories', () => {
  it('finds none in a trajectory that reads, edits, tests and finishes', async () => {
    expect(smellsOf(await scriptedRun(SCRIPTS.fix))).toEqual({ NO_TEST: 0, NO_OP_CAT: 0, CONSECUTIVE_SEARCH: 0, CONSECUTIVE_EDITS: 0 });
  });

  it('NO_TEST when no command ran a test; CONSECUTIVE_SEARCH for three code_search in a row', async () => {
    expect(smellsOf(await scriptedRun(SCRIPTS.searchy))).toEqual({ NO_TEST: 1, NO_OP_CAT: 0, CONSECUTIVE_SEARCH: 1, CONSECUTIVE_EDITS: 0 });
  });

  it('NO_OP_CAT counts re-reads with no change to the file in between, not a re-read after an edit', async () => {
    // cat A, cat A (no-op #1), edit A, cat A (fresh: A changed), cat A (no-op #2), finish
    const t = await scriptedRun([
      say('read', `cat ${SRC}`),
      say('again', `cat ${SRC}`),
      say('fix', `edit ${SRC} 13 13\n            return hi;`),
      say('look', `cat ${SRC}`),
      say('again', `cat ${SRC}`),
      say('done', 'finish success'),
    ]);
    expect(smellsOf(t)).toMatchObject({ NO_OP_CAT: 2, NO_TEST: 1 });
  });

  it('a read that failed showed nothing, so reading again is no smell', async () => {
    const t = await scriptedRun([say('read', 'cat src/Missing.java'), say('again', 'cat src/Missing.java'), say('stop', 'finish failure')]);
    expect(t.steps[0]!.tool?.ok).toBe(false);
    expect(smellsOf(t).NO_OP_CAT).toBe(0);
  });

  it('CONSECUTIVE_EDITS needs three edits of one file in a row; a search between them breaks the run', async () => {
    const edit = (line: number) => say('edit', `edit ${SRC} ${line} ${line}\n            return lo;`);
    // edits 1-3 in a row make one run; edits 4-5 after a search make only two
    const t = await scriptedRun([edit(10), edit(10), edit(10), say('look', 'code_search clamp'), edit(10), edit(10), say('stop', 'finish failure')]);
    expect(smellsOf(t)).toMatchObject({ CONSECUTIVE_EDITS: 1, CONSECUTIVE_SEARCH: 0 });
    // two searches, an edit, two searches: no run of three
    const u = await scriptedRun([say('a', 'code_search a'), say('b', 'code_search b'), edit(10), say('c', 'code_search c'), say('d', 'code_search d'), say('stop', 'finish failure')]);
    expect(smellsOf(u).CONSECUTIVE_SEARCH).toBe(0);
  });

  it('a reply without a command neither extends nor breaks a run of searches', async () => {
    const t = await scriptedRun([say('a', 'code_search a'), 'THOUGHT: I forgot the action', say('b', 'code_search b'), say('c', 'code_search c'), say('stop', 'finish failure')]);
    expect(t.steps[1]!.status).toBe('format-error');
    expect(stepCommand(t.steps[1]!)).toMatchObject({ label: '(format-error)', isCommand: false });
    expect(smellsOf(t).CONSECUTIVE_SEARCH).toBe(1);
  });
});

describe('RepairAgent commands', () => {
  it('read_range is a read of a line range: a range inside one already shown is a no-op read', async () => {
    const read = (start: number, end: number) => JSON.stringify({ thoughts: 'read', command: { name: 'read_range', args: { filepath: SRC, startline: start, endline: end } } });
    // 1-12 shown; 5-10 lies inside it (no-op); 10-16 goes past it (new lines)
    const t = await scriptedRun([read(1, 12), read(5, 10), read(10, 16)], { toolkit: 'repairagent' });
    const cmds = t.steps.map(stepCommand);
    expect(cmds.map((c) => c.reads)).toEqual([[{ file: SRC, part: { kind: 'lines', start: 1, end: 12 } }], [{ file: SRC, part: { kind: 'lines', start: 5, end: 10 } }], [{ file: SRC, part: { kind: 'lines', start: 10, end: 16 } }]]);
    // the strategy's startup run_tests is not the agent's: no test command
    expect(trajectorySmells(cmds)).toEqual({ NO_TEST: 1, NO_OP_CAT: 1, CONSECUTIVE_SEARCH: 0, CONSECUTIVE_EDITS: 0 });
  });

  it('a test command refused before it ran is no test: NO_TEST stays', async () => {
    const writeFix = JSON.stringify({ thoughts: 'fix', command: { name: 'write_fix', args: { changes: [{ file_name: SRC, insertions: [], deletions: [], modifications: [{ line_number: 13, modified_line: '            return hi;' }] }] } } });
    const read = JSON.stringify({ thoughts: 'read', command: { name: 'read_range', args: { filepath: SRC, startline: 1, endline: 5 } } });
    // enforced states: write_fix is not offered while understanding the bug
    const t = await scriptedRun([writeFix, read], { toolkit: 'repairagent', variants: ['enforced-states'] });
    expect(t.steps[0]!.status).toBe('refused');
    expect(stepCommand(t.steps[0]!)).toMatchObject({ label: 'write_fix', isCommand: true, ran: false });
    expect(smellsOf(t).NO_TEST).toBe(1);
  });
});

describe('HAFixAgent bash commands', () => {
  it('splits a command line into simple commands, quotes and redirections kept apart', () => {
    expect(splitBash(`grep -n "a && b" x.java && sed -n '1,5p' x.java | head -3; echo hi > /tmp/o`)).toEqual([
      ['grep', '-n', 'a && b', 'x.java'],
      ['sed', '-n', '1,5p', 'x.java'],
      ['head', '-3'],
      ['echo', 'hi', '>', '/tmp/o'],
    ]);
    expect(splitBash(`sed -n '1,5p' A.java 2>&1 >> out.txt`)).toEqual([['sed', '-n', '1,5p', 'A.java', '2>', '&1', '>>', 'out.txt']]);
  });

  it('classifies grep/sed -n/sed -i/test/compile and finds bash smells', async () => {
    const t = await scriptedRun(
      [
        bash(`grep -n "hi - 1" ${SRC} && sed -n '10,14p' ${SRC}`),
        bash(`sed -n '12,13p' ${SRC}`), // lines 12-13 were shown by 10-14: a no-op read
        bash(`sed -i 's/return hi - 1;/return hi;/' ${SRC}`),
        bash('compile'),
        bash('test'),
        bash('echo COMPLETE_REPAIR_SIGNAL'),
      ],
      { toolkit: 'hafixagent' },
    );
    const cmds = t.steps.map(stepCommand);
    expect(cmds.map((c) => c.label)).toEqual(['grep', 'sed -n', 'sed -i', 'compile', 'test', 'echo']);
    expect(cmds.map((c) => [...c.kinds].sort())).toEqual([['read', 'search'], ['read'], ['edit'], ['build'], ['test'], ['finish']]);
    expect(cmds[0]!.programs).toEqual(['grep', 'sed -n']);
    expect(cmds[2]!.edits).toEqual([SRC]);
    expect(t.outcome?.plausible).toBe(true);
    expect(trajectorySmells(cmds)).toEqual({ NO_TEST: 0, NO_OP_CAT: 1, CONSECUTIVE_SEARCH: 0, CONSECUTIVE_EDITS: 0 });
  });

  it('an output redirection into a file is an edit: three in a row on one file make CONSECUTIVE_EDITS', async () => {
    const t = await scriptedRun([bash('echo note >> README.md'), bash('echo more >> README.md 2>/dev/null'), bash('sed -i s/note/n/ README.md')], { toolkit: 'hafixagent' });
    const cmds = t.steps.map(stepCommand);
    expect(cmds.map((c) => c.edits)).toEqual([['README.md'], ['README.md'], ['README.md']]);
    expect(cmds[0]!.kinds.has('edit')).toBe(true);
    expect(trajectorySmells(cmds).CONSECUTIVE_EDITS).toBe(1);
  });

  it('`test -f file` is the shell builtin, not a test run', async () => {
    const t = await scriptedRun([bash(`test -f ${SRC} && echo yes`)], { toolkit: 'hafixagent' });
    expect([...stepCommand(t.steps[0]!).kinds]).toEqual(['other']);
    expect(smellsOf(t).NO_TEST).toBe(1);
  });
});
