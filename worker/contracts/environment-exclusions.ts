// The environment exclusions RepairLab ships for a Defects4J project (data/defects4j/environment-exclusions/<P>.json,
// docs/formats/environment-exclusions.md): per bug, the tests that fail on the developer fix in the runner's
// environment and not in Defects4J's, each with its reason and the measurement it comes from. A plain import applies
// them; `defects4j check --record-env-failures` measures them again and rewrites the bug's entry.
import { z } from 'zod';
import { ExclusionMeasurement } from './bug.ts';

export const ShippedExclusion = z.object({
  test: z.string().regex(/^[\w$.]+(::[\w$]+)?$/, 'excluded tests look like pkg.Class::method or pkg.Class'),
  reason: z.string().min(1),
  measurement: z.string().min(1).describe('a key of `measurements`: where and when this failure was measured'),
});
export type ShippedExclusion = z.infer<typeof ShippedExclusion>;

export const EnvironmentExclusionsFile = z
  .object({
    schemaVersion: z.literal(1),
    project: z.string().regex(/^\w+$/).describe('the Defects4J project id, e.g. Lang'),
    measurements: z.record(z.string().min(1), ExclusionMeasurement).describe('the measurements the exclusions name, by key'),
    bugs: z
      .record(z.string().regex(/^\w+-\d+$/, 'bug ids look like Lang-1'), z.array(ShippedExclusion))
      .describe('per bug (Lang-1), the tests excluded for the environment'),
  })
  .superRefine((file, ctx) => {
    for (const [bug, exclusions] of Object.entries(file.bugs)) {
      if (!bug.startsWith(`${file.project}-`)) ctx.addIssue({ code: 'custom', path: ['bugs', bug], message: `${bug} is not a bug of ${file.project}` });
      exclusions.forEach((e, i) => {
        if (!(e.measurement in file.measurements)) ctx.addIssue({ code: 'custom', path: ['bugs', bug, i, 'measurement'], message: `no measurement "${e.measurement}" in measurements` });
      });
    }
  });
export type EnvironmentExclusionsFile = z.infer<typeof EnvironmentExclusionsFile>;
