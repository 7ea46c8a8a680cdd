// History extractor and heuristics on the bundled demo bugs. Expected values were worked out by hand from
// each library's history with the git CLI (git log / git blame -L / git show), not by running this code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BugSpec } from '../../../worker/contracts/bug.ts';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { blamelessFallbackLine, classifyBug, diffCommits, extractHistory } from '../../../worker/history/extractor.ts';
import { fnAllNames, fnPair, flDiff, historyContext, isProgramFile } from '../../../worker/history/heuristics.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import type { RepoSession } from '../../../worker/repo/session.ts';
import { RepoStore } from '../../../worker/repo/repo-store.ts';
import { removeDir, tempDir } from '../repo/git-fixture.ts';

const STRINGS = 'src/main/java/org/repairlab/textkit/Strings.java';

// textkit-1: line 58 of Strings.java at the buggy commit was last changed by 2fab7e9
// ("Support a custom ellipsis in truncate", 2024-01-22 08:36 +0100 = 07:36 UTC), where it was line 58 too.
const TEXTKIT1_COMMIT = '2fab7e90ebd7e276f291816ae729937111544728';
const TEXTKIT1_DIFF = `diff --git a/src/main/java/org/repairlab/textkit/Strings.java b/src/main/java/org/repairlab/textkit/Strings.java
index 393df85..be5701f 100644
--- a/src/main/java/org/repairlab/textkit/Strings.java
+++ b/src/main/java/org/repairlab/textkit/Strings.java
@@ -47,12 +47,17 @@ public final class Strings {
 
     /** Shortens the string to at most {@code maxLength} characters, ending in "..." when cut. */
     public static String truncate(String s, int maxLength) {
-        if (maxLength < 3) {
-            throw new IllegalArgumentException("maxLength must be at least 3: " + maxLength);
+        return truncate(s, maxLength, "...");
+    }
+
+    /** Shortens the string to at most {@code maxLength} characters, ending in {@code ellipsis} when cut. */
+    public static String truncate(String s, int maxLength, String ellipsis) {
+        if (maxLength < ellipsis.length()) {
+            throw new IllegalArgumentException("maxLength " + maxLength + " is shorter than the ellipsis");
         }
-        if (s.length() <= maxLength) {
+        if (s.length() < maxLength) {
             return s;
         }
-        return s.substring(0, maxLength - 3) + "...";
+        return s.substring(0, maxLength - ellipsis.length()) + ellipsis;
     }
 }`;
// Before the commit (its parent 48d28c0, lines 48-57) only the two-argument truncate existed.
const TEXTKIT1_BEFORE = `    /** Shortens the string to at most {@code maxLength} characters, ending in "..." when cut. */
    public static String truncate(String s, int maxLength) {
        if (maxLength < 3) {
            throw new IllegalArgumentException("maxLength must be at least 3: " + maxLength);
        }
        if (s.length() <= maxLength) {
            return s;
        }
        return s.substring(0, maxLength - 3) + "...";
    }`;
// After it (lines 53-62), the blamed line sits in the new three-argument overload.
const TEXTKIT1_AFTER = `    /** Shortens the string to at most {@code maxLength} characters, ending in {@code ellipsis} when cut. */
    public static String truncate(String s, int maxLength, String ellipsis) {
        if (maxLength < ellipsis.length()) {
            throw new IllegalArgumentException("maxLength " + maxLength + " is shorter than the ellipsis");
        }
        if (s.length() < maxLength) {
            return s;
        }
        return s.substring(0, maxLength - ellipsis.length()) + ellipsis;
    }`;

describe('HAFix history extractor and heuristics on the demo bugs', () => {
  let work: string;
  let store: RepoStore;
  const bugs = new Map<string, BugSpec>();
  const sessions = new Map<string, RepoSession>();
  const platform = () => createNodePlatform({ root: work });

  beforeAll(async () => {
    work = tempDir('heuristics');
    store = new RepoStore(platform());
    await initJavaForNode();
    for (const id of ['textkit-1', 'textkit-2', 'csvkit-3', 'numkit-4', 'collectkit-1']) {
      const bug = JSON.parse(new TextDecoder().decode(await platform().loadAsset(`benchmarks/bugs/${id}.json`))) as BugSpec;
      bugs.set(id, bug);
      if (!sessions.has(bug.repoId)) {
        if (bug.repository.kind !== 'bundled') throw new Error('demo bugs are bundled');
        await store.importBundle(bug.repoId, await platform().loadAsset(`benchmarks/${bug.repository.bundle}`));
        sessions.set(bug.repoId, await store.openRepo(bug.repoId));
      }
    }
  }, 120_000);

  afterAll(() => removeDir(work));

  const ctx = (id: string) => ({ bug: bugs.get(id)!, session: sessions.get(bugs.get(id)!.repoId)! });

  it('textkit-1: blames the FL line to the commit that introduced the ellipsis overload', async () => {
    const { bug, session } = ctx('textkit-1');
    const extraction = await extractHistory(session, bug);
    expect(extraction.blameable).toBe(true);
    expect(extraction.candidates.map((c) => `${c.file}:${c.line}`)).toEqual([`${STRINGS}:58`]);
    expect(extraction.primary?.blame).toEqual({ line: 58, commit: TEXTKIT1_COMMIT, path: STRINGS, origLine: 58 });
    expect(extraction.primary?.commit).toMatchObject({ date: '2024-01-22 07:36:00', summary: 'Support a custom ellipsis in truncate', author: 'Ben Okafor' });
  });

  it('fn_all lists every declared name in the changed non-test files, deduplicated, in file order', async () => {
    const { bug, session } = ctx('textkit-1');
    const extraction = await extractHistory(session, bug);
    // The commit changed Strings.java and StringsTest.java; the test file is left out.
    expect(await fnAllNames(session, bug, extraction)).toEqual(['Strings', 'isBlank', 'repeat', 'padLeft', 'padRight', 'truncate']);
    expect(await fnAllNames(session, bug, extraction, { maxFiles: 50, maxNames: 3, maxFunctionChars: 1500, maxDiffChars: 3000 })).toEqual(['Strings', 'isBlank', 'repeat']);
    const { text } = await historyContext(session, bug, 'fn_all');
    expect(text).toContain(`Commit: ${TEXTKIT1_COMMIT}\nCommit date: 2024-01-22 07:36:00\nCommit message: Support a custom ellipsis in truncate\n`);
    expect(text).toContain('- padRight\n- truncate\n');
  });

  it('fn_pair gives the enclosing function before and after the commit, Javadoc included', async () => {
    const { bug, session } = ctx('textkit-1');
    const extraction = await extractHistory(session, bug);
    const pair = await fnPair(session, bug, extraction);
    expect(pair?.name).toBe('truncate');
    expect(pair?.before).toBe(TEXTKIT1_BEFORE);
    expect(pair?.after).toBe(TEXTKIT1_AFTER);
    const capped = await fnPair(session, bug, extraction, { maxFiles: 50, maxNames: 600, maxFunctionChars: 40, maxDiffChars: 3000 });
    expect(capped?.after).toBe(TEXTKIT1_AFTER.slice(0, 40));
  });

  // collectkit-1's line was blamed to 0a7d98c, which added overlaps() to an existing IntRange.java; csvkit-3's to
  // d6e091f, which added CsvParser.java itself (git show --stat). fn_pair says so instead of an empty "before" block.
  it('fn_pair says the commit added the function, or its file, when there is no "before"', async () => {
    for (const [bugId, said] of [
      ['collectkit-1', 'The enclosing function overlaps did not exist before this commit (this commit added the function). After it:\n```java\n'],
      ['csvkit-3', 'The enclosing function parseLine did not exist before this commit (this commit added the file src/main/java/org/repairlab/csv/CsvParser.java). After it:\n```java\n'],
    ] as const) {
      const { bug, session } = ctx(bugId);
      const { text } = await historyContext(session, bug, 'fn_pair');
      expect(text).toContain(said);
      expect(text).not.toContain('```java\n\n```');
    }
  });

  it('fl_diff is the commit\'s diff of the blamed file, as git show prints it, capped', async () => {
    const { bug, session } = ctx('textkit-1');
    const extraction = await extractHistory(session, bug);
    expect(await flDiff(session, extraction)).toBe(TEXTKIT1_DIFF);
    expect(await flDiff(session, extraction, { maxFiles: 50, maxNames: 600, maxFunctionChars: 1500, maxDiffChars: 200 })).toBe(TEXTKIT1_DIFF.slice(0, 200));
    const { text } = await historyContext(session, bug, 'fl_diff');
    expect(text).toContain(`\`\`\`diff\n${TEXTKIT1_DIFF}\n\`\`\``);
  });

  it('csvkit-3 (two files): paper mode unions the commits, code mode picks one line', async () => {
    const { bug, session } = ctx('csvkit-3');
    // CsvParser.java:35 ← d6e091f (Add CsvParser for single lines); CsvWriter.java:33 ← e37ac74 (double quotes …)
    const paper = await extractHistory(session, bug, { mode: 'paper' });
    expect(paper.commits.map((c) => [c.oid, c.summary])).toEqual([
      ['d6e091f2706937316331d36c787f00a24b57d6e3', 'Add CsvParser for single lines'],
      ['e37ac749a0c141589bc767cd65a6c8af400ab621', 'CsvWriter: double quotes inside quoted fields'],
    ]);
    expect(paper.primary?.commit.oid).toBe('d6e091f2706937316331d36c787f00a24b57d6e3');
    const judged = await extractHistory(session, bug, { mode: 'paper', judge: async (choices) => choices.findIndex((c) => c.commit?.summary.startsWith('CsvWriter')) });
    expect(judged.primary?.commit.oid).toBe('e37ac749a0c141589bc767cd65a6c8af400ab621');

    const first = await extractHistory(session, bug, { mode: 'code', selector: 'first' });
    expect(first.blamed.map((b) => b.target.line)).toEqual([35]);
    expect(first.commits.map((c) => c.oid)).toEqual(['d6e091f2706937316331d36c787f00a24b57d6e3']);
    const llm = await extractHistory(session, bug, { mode: 'code', selector: 'llm_judge', judge: async () => 1 });
    expect(llm.primary?.target.file).toBe('src/main/java/org/repairlab/csv/CsvWriter.java');
    const r1 = await extractHistory(session, bug, { mode: 'code', selector: 'random', seed: 7 });
    const r2 = await extractHistory(session, bug, { mode: 'code', selector: 'random', seed: 7 });
    expect(r1.primary?.target).toEqual(r2.primary?.target);
    await expect(extractHistory(session, bug, { selector: 'llm_judge' })).rejects.toThrow(/judge callback/);
  });

  it('textkit-2 (insert-only, blameless): falls back to the substantive line above the insertion', async () => {
    const { bug, session } = ctx('textkit-2');
    // The fix inserts after Slugs.java:13 (the slugify signature, a code line), added by ebbdb27 "Add Slugs.slugify".
    const extraction = await extractHistory(session, bug);
    expect(extraction.blameable).toBe(false);
    expect(extraction.candidates.map((c) => [c.line, c.source])).toEqual([[13, 'blameless-fallback']]);
    expect(extraction.primary?.commit).toMatchObject({ oid: 'ebbdb277a3f7b7f3b61535e1f0c09fd3492d3c9a', summary: 'Add Slugs.slugify' });
  });

  it('a blameless bug whose fix also adds a file (Jsoup-71): the new file has nothing to blame, the other insertions do', async () => {
    const { bug, session } = ctx('textkit-2');
    const created = { file: 'src/main/java/org/repairlab/text/Created.java', lines: [1], kind: 'insert' as const };
    const extraction = await extractHistory(session, { ...bug, faultLocalization: [created, ...bug.faultLocalization] });
    expect(extraction.candidates.map((c) => [c.file, c.line, c.source])).toEqual([[bug.faultLocalization[0]!.file, 13, 'blameless-fallback']]);
    expect(extraction.primary?.commit.summary).toBe('Add Slugs.slugify');
    // a line to modify in a file the buggy version lacks is still an inconsistent spec
    await expect(extractHistory(session, { ...bug, faultLocalization: [{ ...created, kind: 'modify' }] })).rejects.toThrow(/does not exist at the buggy commit/);
  });

  it('the blameless fallback prefers code, then structure, within 5 lines, skipping comments and blanks', () => {
    //            1             2             3        4          5
    const kinds = ['executable', 'structural', 'blank', 'comment', 'structural'] as const;
    expect(blamelessFallbackLine([...kinds], 5)).toBe(1);
    expect(blamelessFallbackLine([...kinds], 4, 3)).toBe(2); // window 4,3,2: no code, nearest structural
    expect(blamelessFallbackLine(['executable', 'blank', 'blank', 'blank', 'blank', 'comment'], 6)).toBeUndefined();
  });

  it('classifies bugs from their ground truth (patch, or the buggy → fixed diff)', async () => {
    // textkit-1 edits one line; csvkit-3 one line in each of two files; textkit-2 only inserts a line;
    // numkit-4 inserts in two places of Roman.java.
    const expected: Record<string, [string, boolean]> = { 'textkit-1': ['SL', true], 'csvkit-3': ['MFMH', true], 'textkit-2': ['SL', false], 'numkit-4': ['SFMH', false] };
    for (const [id, [category, blameable]] of Object.entries(expected)) {
      const { bug, session } = ctx(id);
      expect(await classifyBug(session, bug), id).toMatchObject({ category, blameable });
      const fromCommits = await classifyBug(session, { ...bug, groundTruth: { fixedCommit: bug.groundTruth.fixedCommit } });
      expect(fromCommits, `${id} via commits`).toMatchObject({ category, blameable });
    }
    const { bug, session } = ctx('textkit-1');
    expect(await diffCommits(session, bug.buggyCommit, bug.groundTruth.fixedCommit!)).toBe(bug.groundTruth.patch!.replace(/index (\w{7})\w*\.\.(\w{7})\w*/g, 'index $1..$2'));
  });

  it('program files exclude tests by name, directory and layout', () => {
    expect(isProgramFile('src/main/java/a/Strings.java')).toBe(true);
    expect(isProgramFile('src/main/java/a/StringsTest.java')).toBe(false);
    expect(isProgramFile('src/it/java/a/Checks.java', ['src/it/java'])).toBe(false);
    expect(isProgramFile('README.md')).toBe(false);
  });
});
