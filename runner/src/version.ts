export const RUNNER_VERSION = '0.1.0';
