// Runner HTTP API v1: request and response bodies. Shared by runner/ (server) and
// worker/runner-client/ (client). docs/runner-api.md + docs/openapi.json describe the same shapes.
import { z } from 'zod';
import { ProjectLayout, TestId } from './bug.ts';
import { TestEdits } from './test-edits.ts';

export const RUNNER_API_VERSION = 'v1';

export const Isolation = z.object({
  backend: z.enum(['bwrap', 'docker', 'none']),
  network: z.boolean().describe('true = sandboxed code has NO network'),
  readOnlySystem: z.boolean(),
  privateTmp: z.boolean(),
  processLimits: z.boolean(),
  notes: z.array(z.string()).default([]),
  /** the resource limits the backend's start-up probe saw in force (null: not obtained), and what stays uncapped */
  limits: z
    .object({
      /** cap on each sandboxed process's memory, native allocations included */
      memoryMb: z.number().nullable(),
      memoryHow: z.string(),
      /** cap on the sandbox user's processes + threads */
      processes: z.number().int().nullable(),
      /** size of the sandbox's private /tmp */
      tmpMb: z.number().nullable(),
      /** whether cgroup v2 caps (memory of the sandbox as a whole, pids) were obtained */
      cgroup: z.boolean(),
      /** whether what a validation started is killed at its end (PID namespace / process group) */
      processGroupKilled: z.boolean(),
      uncapped: z.array(z.string()),
    })
    .optional(),
});
export type Isolation = z.infer<typeof Isolation>;

export const Health = z.object({
  ok: z.literal(true),
  api: z.literal(RUNNER_API_VERSION),
  version: z.string(),
  isolation: Isolation,
  jdk: z.string(),
  junit: z.array(z.string()),
  workers: z.number().int(),
});
export type Health = z.infer<typeof Health>;

/** A base tree the runner keeps by id (the git tree oid of the buggy commit). Only missing blobs travel. */
export const SnapshotManifest = z.object({
  treeId: z.string().regex(/^[0-9a-f]{40}$/),
  files: z.array(z.object({ path: z.string(), oid: z.string().regex(/^[0-9a-f]{40}$/) })),
});
export type SnapshotManifest = z.infer<typeof SnapshotManifest>;

export const SnapshotStatus = z.object({
  treeId: z.string(),
  complete: z.boolean(),
  missingBlobs: z.array(z.string()),
});
export type SnapshotStatus = z.infer<typeof SnapshotStatus>;

/** Blobs uploaded as base64 keyed by git blob oid; the runner verifies each oid. */
export const BlobUpload = z.object({ blobs: z.record(z.string(), z.string()) });

export const TestSelection = z.discriminatedUnion('mode', [
  /** run the listed (failing) tests first; stop at the first failure; if all pass run the rest of the suite. */
  z.object({ mode: z.literal('failing-first'), tests: z.array(TestId).min(1) }),
  z.object({ mode: z.literal('listed'), tests: z.array(TestId).min(1) }),
  z.object({ mode: z.literal('all') }),
]);
export type TestSelection = z.infer<typeof TestSelection>;

export const Limits = z.object({
  perTestTimeoutMs: z.number().int().positive().max(600_000).default(10_000),
  wallClockMs: z.number().int().positive().max(3_600_000).default(120_000),
});
export type Limits = z.infer<typeof Limits>;

export const ValidateRequest = z.object({
  treeId: z.string().regex(/^[0-9a-f]{40}$/),
  /** path → new content, or null for a deleted file. */
  overlay: z.record(z.string(), z.string().nullable()).default({}),
  layout: ProjectLayout,
  tests: TestSelection,
  limits: Limits.partial().optional(),
  /** cold = fresh javac + JVM (baseline); warm = long-lived harness; auto = warm with cold fallback. */
  path: z.enum(['auto', 'warm', 'cold']).default('auto'),
  coverage: z.boolean().default(false),
  /**
   * What the overlay may do to test files (under layout.testDirs and testResourceDirs): none (default) = nothing;
   * add = add new ones only; any = anything, for trusted callers only (a person's own patch, never a model's).
   * Anything else is refused with 400 test-edit (docs/runner-api.md).
   */
  testEdits: TestEdits.default('none'),
});
export type ValidateRequest = z.input<typeof ValidateRequest>;

/** Many overlays of one snapshot validated alike (write_fix's variants): answered in order, one result each. */
export const ValidateBatchRequest = ValidateRequest.omit({ overlay: true }).extend({
  overlays: z.array(z.record(z.string(), z.string().nullable())).min(1).max(100),
});
export type ValidateBatchRequest = z.input<typeof ValidateBatchRequest>;

export const Diagnostic = z.object({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int().optional(),
  kind: z.enum(['error', 'warning']),
  message: z.string(),
});
export type Diagnostic = z.infer<typeof Diagnostic>;

export const TestStatus = z.enum(['pass', 'fail', 'error', 'timeout', 'skipped', 'not-run']);

export const TestResult = z.object({
  id: TestId,
  status: TestStatus,
  durationMs: z.number(),
  failure: z
    .object({
      exception: z.string(),
      message: z.string(),
      /** project and test frames only */
      frames: z.array(z.string()),
      omittedFrames: z.number().int(),
    })
    .optional(),
});
export type TestResult = z.infer<typeof TestResult>;

export const ValidationResult = z.object({
  /** compiled && every executed test passed && the whole suite ran */
  plausible: z.boolean(),
  compiled: z.boolean(),
  diagnostics: z.array(Diagnostic),
  tests: z.array(TestResult),
  failingTests: z.array(TestId),
  /** Defects4J-style: `Failing tests: N` + `  - pkg.Class::method` lines */
  report: z.string(),
  /** what stopped the run early, if anything: failing-first stop, wall clock, crash */
  stopped: z.enum(['none', 'first-failure', 'wall-clock', 'crash', 'compile-error']).default('none'),
  path: z.enum(['warm', 'cold']),
  cached: z.boolean(),
  timingsMs: z.object({ total: z.number(), compile: z.number(), tests: z.number() }),
  /** batch validations: how many variants shared this one's compile (absent when it was compiled alone) */
  compiledWith: z.number().int().optional(),
  coverage: z
    .array(z.object({ test: TestId, passed: z.boolean(), lines: z.record(z.string(), z.array(z.number().int())) }))
    .optional(),
  /** set by the client, not sent by the runner: the runner URL that answered (a run's record says which runner served each validation) */
  runner: z.string().optional(),
});
export type ValidationResult = z.infer<typeof ValidationResult>;

export const ValidateBatchResponse = z.object({ results: z.array(ValidationResult) });
export type ValidateBatchResponse = z.infer<typeof ValidateBatchResponse>;

export const RunnerErrorBody = z.object({ error: z.string(), code: z.string(), detail: z.unknown().optional() });
