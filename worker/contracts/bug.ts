// BugSpec: what RepairLab knows about one Java bug. Single source of truth for the format
// (docs/formats/ JSON Schemas are generated from these zod schemas).
//
// The ground truth (`groundTruth`) never reaches an agent: the engine hands tools a PublicBug
// (see `toPublicBug`), and the agent's workspace is the buggy commit's tree only.
import { z } from 'zod';

/** Fully qualified test id as Defects4J prints it: `pkg.Class::method`. */
export const TestId = z.string().regex(/^[\w$.]+::[\w$]+$/, 'test ids look like pkg.Class::method');
export type TestId = z.infer<typeof TestId>;

export const JUnitVersion = z.enum(['junit3', 'junit4', 'junit5']);
export type JUnitVersion = z.infer<typeof JUnitVersion>;

export const ProjectLayout = z.object({
  sourceDirs: z.array(z.string()).min(1).describe('program source roots, e.g. src/main/java'),
  testDirs: z.array(z.string()).min(1).describe('test source roots, e.g. src/test/java'),
  resourceDirs: z.array(z.string()).default([]),
  testResourceDirs: z.array(z.string()).default([]),
  javaRelease: z.number().int().min(8).max(25).default(11).describe('javac --release'),
  junit: JUnitVersion.default('junit4'),
  classpath: z.array(z.string()).default([]).describe('extra jars known to the runner, by name (e.g. hamcrest)'),
});
export type ProjectLayout = z.infer<typeof ProjectLayout>;

/** One hunk of perfect fault localization, in the buggy version's line numbers (1-based). */
export const FaultLocation = z.object({
  file: z.string(),
  lines: z.array(z.number().int().positive()).min(1),
  /** modify/delete: the listed lines change; insert: code is missing right after the listed line (fault of omission). */
  kind: z.enum(['modify', 'delete', 'insert']),
  method: z.string().optional(),
  className: z.string().optional(),
});
export type FaultLocation = z.infer<typeof FaultLocation>;

/** HAFixAgent's categories: single line, single hunk, single file multi hunk, multi file multi hunk. */
export const BugCategory = z.enum(['SL', 'SH', 'SFMH', 'MFMH']);
export type BugCategory = z.infer<typeof BugCategory>;

export const RepositorySource = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('bundled'), bundle: z.string().describe('path under public/benchmarks/') }),
  z.object({ kind: z.literal('url'), url: z.string().url() }),
  z.object({ kind: z.literal('imported'), repoId: z.string() }),
]);
export type RepositorySource = z.infer<typeof RepositorySource>;

export const GroundTruth = z.object({
  fixedCommit: z.string().regex(/^[0-9a-f]{40}$/).optional(),
  /** Unified diff from buggy to fixed (program files only). */
  patch: z.string().optional(),
});
export type GroundTruth = z.infer<typeof GroundTruth>;

export const BugSpec = z.object({
  schemaVersion: z.literal(1),
  id: z.string().regex(/^[A-Za-z0-9][\w.-]*$/),
  library: z.string(),
  repository: RepositorySource,
  /** Repository id inside RepairLab's store (one store entry can serve many bugs). */
  repoId: z.string(),
  buggyCommit: z.string().regex(/^[0-9a-f]{40}$/),
  layout: ProjectLayout,
  failingTests: z.array(TestId).min(1),
  report: z.object({ title: z.string(), body: z.string() }),
  faultLocalization: z.array(FaultLocation).min(1),
  category: BugCategory,
  blameable: z.boolean(),
  defectKinds: z.array(z.string()).default([]),
  groundTruth: GroundTruth,
});
export type BugSpec = z.infer<typeof BugSpec>;

export type PublicBug = Omit<BugSpec, 'groundTruth'>;

/** The only view of a bug given to tools, prompts and trajectories. */
export function toPublicBug(bug: BugSpec): PublicBug {
  const { groundTruth: _hidden, ...rest } = bug;
  return rest;
}

/** public/benchmarks/index.json */
export const BenchmarkIndex = z.object({
  schemaVersion: z.literal(1),
  repositories: z.array(
    z.object({ repoId: z.string(), library: z.string(), bundle: z.string(), sha256: z.string(), bytes: z.number().int(), commits: z.number().int() }),
  ),
  bugs: z.array(z.string().describe('path of a BugSpec JSON under public/benchmarks/')),
});
export type BenchmarkIndex = z.infer<typeof BenchmarkIndex>;
