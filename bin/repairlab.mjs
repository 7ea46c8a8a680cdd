#!/usr/bin/env node
// `npx repairlab …`: the headless CLI. The engine is TypeScript; tsx runs it under Node without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../worker/cli/main.ts');
