// JSON Schemas of the file formats, generated from the zod contracts (docs/formats/*.schema.json).
import { z } from 'zod';
import { BenchmarkIndex, BugSpec } from './bug.ts';
import { BundleFile } from './bundle.ts';
import { Cassette } from './cassette.ts';
import { EnvironmentExclusionsFile } from './environment-exclusions.ts';
import { ExperimentSpec } from './experiment.ts';
import { RunnerPoolDescriptor } from './pool-descriptor.ts';
import { StrategySpec } from './strategy.ts';
import { Trajectory } from './trajectory.ts';

export function formatSchemas(): Record<string, unknown> {
  const schemas = { bugspec: BugSpec, 'benchmark-index': BenchmarkIndex, trajectory: Trajectory, cassette: Cassette, strategy: StrategySpec, experiment: ExperimentSpec, bundle: BundleFile, 'environment-exclusions': EnvironmentExclusionsFile, 'runner-pool': RunnerPoolDescriptor };
  return Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' })]));
}
