// One-off conversion (kept to show how the first shipped exclusion files were made): the tests each bug excluded for
// the environment in docs/defects4j-results/<P>.jsonl (`environmentRecorded`) → data/defects4j/environment-exclusions/<P>.json.
// Those result lines kept the tests but not their failures, so each reason says so rather than guessing one.
//   node --import tsx scripts/exclusions-from-results.ts <Project> <measured day> [<Defects4J commit>]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readExclusionsFile, SHIPPED_EXCLUSIONS_DIR, withBugMeasured, writeExclusionsFile } from '../worker/node/defects4j/shipped-exclusions.ts';

const [project, date, defects4j] = process.argv.slice(2);
if (!project || !date) throw new Error('usage: exclusions-from-results.ts <Project> <YYYY-MM-DD> [<Defects4J commit>]');
const results = fileURLToPath(new URL(`../docs/defects4j-results/${project}.jsonl`, import.meta.url));
const measurement = {
  jdk: '17 (the developers\' machine; the exact build was not kept)',
  date,
  command: `repairlab defects4j check --project ${project} --record-env-failures --reimport --results docs/defects4j-results/${project}.jsonl`,
  ...(defects4j ? { defects4j } : {}),
};
const reason = `recorded on ${date} by defects4j check --record-env-failures; its failure was not kept (causes: docs/defects4j-import.md, "Whole projects")`;
let file = readExclusionsFile(SHIPPED_EXCLUSIONS_DIR, project);
const unnamed: string[] = [];
for (const line of readFileSync(results, 'utf8').split('\n').filter(Boolean)) {
  const r = JSON.parse(line) as { bugId: string; environmentExcluded: number; environmentRecorded?: string[] };
  const tests = r.environmentRecorded ?? [];
  if (r.environmentExcluded > tests.length) unnamed.push(`${r.bugId} (${r.environmentExcluded} excluded, ${tests.length} named)`);
  if (tests.length) file = withBugMeasured(file, project, r.bugId, tests.map((test) => ({ test, reason })), measurement);
}
if (file) console.log(`${writeExclusionsFile(SHIPPED_EXCLUSIONS_DIR, file)}: ${Object.keys(file.bugs).length} bug(s), ${Object.values(file.bugs).flat().length} test(s)`);
if (unnamed.length) console.log(`not converted (the results line was of a reused bug and names fewer tests than it excluded): ${unnamed.join(', ')}`);
