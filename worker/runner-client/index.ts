export { RunnerClient, runnerValidator, type RunnerClientOptions, type ValidateOptions } from './client.ts';
export { RunnerError, setRunnerAdviceSurface, type RunnerAdviceSurface, type RunnerErrorCode } from './runner-errors.ts';
export { ochiai, ochiaiScore, type SuspiciousLine } from './ochiai.ts';
