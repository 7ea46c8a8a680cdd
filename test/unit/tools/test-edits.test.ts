// The bug's tests are not the model's to change (issue 27): every tool that writes refuses an edit or deletion of a
// test file, and an added one unless the strategy allows it (testEdits 'add'), with a message that says why and what
// to do — so the model learns it instead of meeting the runner's 400. Nothing is written and nothing is validated.
import { describe, expect, it } from 'vitest';
import { applyPatchTool } from '../../../worker/tools/engine-tools.ts';
import type { ToolContext } from '../../../worker/contracts/tools.ts';
import type { TestEdits } from '../../../worker/contracts/test-edits.ts';
import { findTool } from '../../../worker/tools/registry.ts';
import { RANGE_PATH, TEST_PATH, TEST_SOURCE, demoContext } from './fixtures.ts';

const NEW_TEST = 'src/test/java/org/demo/ReproTest.java';
const READ_ONLY = /refused: this (edits|deletes) src\/test\/java\/org\/demo\/RangeTest\.java, one of the bug's tests\. The tests define the bug/;

function context(testEdits?: TestEdits): ReturnType<typeof demoContext> & ToolContext {
  return { ...demoContext({ writeFixMode: 'paper', requireFaultLines: false }), ...(testEdits ? { testEdits } : {}) };
}

/** The call was refused with `message`, left the overlay as it was and asked the runner nothing. */
async function refused(ctx: ReturnType<typeof context>, call: () => Promise<{ ok: boolean; output: string }>, message: RegExp): Promise<void> {
  const before = ctx.workspace.overlay();
  const result = await call();
  expect(result.ok).toBe(false);
  expect(result.output).toMatch(message);
  expect(ctx.workspace.overlay()).toEqual(before);
  expect(ctx.validator.calls).toHaveLength(0);
}

describe.each([undefined, 'none', 'add'] as const)('with testEdits %s, the bug\'s tests are read-only', (testEdits) => {
  it('RepairAgent write_fix refuses a change to the failing test (a changed expectation), naming the file and saying why', async () => {
    const ctx = context(testEdits);
    const writeFix = findTool('repairagent', 'write_fix')!;
    const changes = [{ file_name: TEST_PATH, insertions: [], deletions: [], modifications: [{ line_number: 10, modified_line: '        assertTrue(true);' }] }];
    await refused(ctx, () => writeFix.run({ changes }, ctx), READ_ONLY);
    // a fix that also touches the test is refused whole
    const both = [{ file_name: RANGE_PATH, insertions: [], deletions: [], modifications: [{ line_number: 17, modified_line: '        return x >= min && x <= max;' }] }, ...changes];
    await refused(ctx, () => writeFix.run({ changes: both }, ctx), READ_ONLY);
    expect((await writeFix.run({ changes: both }, ctx)).output).toContain('fix the bug in the program code (under src/main/java)');
  });

  it('Passerine edit refuses @Ignore on the failing test', async () => {
    const ctx = context(testEdits);
    const line = TEST_SOURCE.split('\n').findIndex((l) => l.includes('@Test')) + 1;
    await refused(ctx, () => findTool('passerine', 'edit')!.run({ file: TEST_PATH, start: line, end: line, replacement: '  @org.junit.Ignore @Test' }, ctx), READ_ONLY);
  });

  it('HAFixAgent bash fails a write to a test file like a read-only file, with the reason, and keeps deletions out', async () => {
    const ctx = context(testEdits);
    const bash = findTool('hafixagent', 'bash')!;
    const before = ctx.workspace.overlay();
    for (const command of [`sed -i 's/assertTrue/org.junit.Assume.assumeTrue(false); assertTrue/' ${TEST_PATH}`, `echo '// x' >> ${TEST_PATH}`, `rm ${TEST_PATH}`, 'rm -rf src/test', `mv ${TEST_PATH} /tmp/`]) {
      const r = await bash.run({ command }, ctx);
      // (just-bash's rm -f exits 0 whatever it could not remove)
      if (!command.startsWith('rm -rf')) expect(r.data?.exitCode, command).not.toBe(0);
      expect(r.data?.stderr as string, command).toMatch(READ_ONLY);
      expect(ctx.workspace.overlay(), command).toEqual(before);
    }
    // sed -i's own message is "No such file or directory"; the real reason follows it
    const sed = await bash.run({ command: `sed -i 's/a/b/' ${TEST_PATH}` }, ctx);
    expect(sed.data?.stderr as string).toMatch(/No such file or directory\nrefused: this edits src\/test\/java\/org\/demo\/RangeTest\.java/);
    // a program file taking the test class's name would run in its place
    const shadow = await bash.run({ command: `cp ${TEST_PATH} src/main/java/org/demo/RangeTest.java` }, ctx);
    expect(shadow.data?.stderr as string).toMatch(/adds src\/main\/java\/org\/demo\/RangeTest\.java, which takes the name of src\/test\/java\/org\/demo\/RangeTest\.java/);
    expect(ctx.workspace.overlay()).toEqual(before);
    // reading and program edits still work
    expect((await bash.run({ command: `sed -i 's/x > min/x >= min/' ${RANGE_PATH} && grep -c Test ${TEST_PATH}` }, ctx)).data?.exitCode).toBe(0);
    expect(Object.keys(ctx.workspace.overlay())).toEqual([RANGE_PATH]);
    expect(ctx.validator.calls).toHaveLength(0);
  });

  it("the one-shot apply_patch does not apply a diff that edits the bug's test", async () => {
    const ctx = context(testEdits);
    const diff = `--- a/${TEST_PATH}\n+++ b/${TEST_PATH}\n@@ -1,1 +1,1 @@\n-package org.demo;\n+package org.demo; // edited\n`;
    const r = await applyPatchTool.run({ diff }, ctx);
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/^The patch was not applied: refused: this edits src\/test\/java\/org\/demo\/RangeTest\.java/);
    expect(ctx.workspace.overlay()).toEqual({});
    expect(ctx.validator.calls).toHaveLength(0);
  });
});

describe('adding a test file', () => {
  const repro = 'package org.demo;\n\npublic class ReproTest {\n}\n';

  it("is refused under 'none' (the default), in every toolkit", async () => {
    const ctx = context();
    const r = await findTool('hafixagent', 'bash')!.run({ command: `printf 'class X {}' > ${NEW_TEST}` }, ctx);
    expect(r.data?.stderr as string).toMatch(/refused: this adds the test file src\/test\/java\/org\/demo\/ReproTest\.java\. The tests define the bug/);
    await refused(ctx, () => applyPatchTool.run({ diff: `--- /dev/null\n+++ b/${NEW_TEST}\n@@ -0,0 +1,1 @@\n+class X {}\n` }, ctx), /adds the test file/);
    // Passerine's edit creates no file under 'none'
    await refused(ctx, () => findTool('passerine', 'edit')!.run({ file: NEW_TEST, start: 1, end: 0, replacement: repro }, ctx), /file not found/);
  });

  it("is allowed under 'add' (a reproduction test), unless it takes the name of an existing class", async () => {
    const ctx = context('add');
    const edit = findTool('passerine', 'edit')!;
    const created = await edit.run({ file: NEW_TEST, start: 1, end: 0, replacement: repro }, ctx);
    expect(created.ok, created.output).toBe(true);
    expect(ctx.workspace.overlay()).toEqual({ [NEW_TEST]: repro });
    // its own new file stays the agent's to change
    expect((await edit.run({ file: NEW_TEST, start: 3, end: 3, replacement: 'public class ReproTest { // reproduces' }, ctx)).ok).toBe(true);
    const bash = findTool('hafixagent', 'bash')!;
    expect((await bash.run({ command: `echo 'class Y {}' > src/test/java/org/demo/OtherReproTest.java` }, ctx)).data?.exitCode).toBe(0);
    // a test class named like a program class would stand in for it while the agent works
    const shadow = await bash.run({ command: `echo 'class Range {}' > src/test/java/org/demo/Range.java` }, ctx);
    expect(shadow.data?.stderr as string).toMatch(/takes the name of src\/main\/java\/org\/demo\/Range\.java and would replace or hide it\. Give the new file a name/);
    expect(Object.keys(ctx.workspace.overlay()).sort()).toEqual(['src/test/java/org/demo/OtherReproTest.java', NEW_TEST]);
  });
});
