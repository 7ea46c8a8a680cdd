// HAFixAgent's environment: one bash command per step (mini-swe-agent style), run by just-bash over the workspace.
// just-bash (~1 MB) is imported lazily, on the first command. The repository is the working directory (/repo);
// /tmp and /dev/null come from a scratch in-memory filesystem that is discarded after each command.
//
// Build/test commands call the runner through ctx.validator:
//   compile | defects4j compile         compile (the runner compiles, then runs the failing tests; only the compile result is shown)
//   test [id…] | defects4j test -r      the bug's relevant (failing) tests, or the given test ids
//   defects4j test [-t id]              the failing tests first, then the whole suite (or one test with -t)
// Like Defects4J, a test run exits 0 when it ran (failing tests are listed in the output) and 1 when compilation failed.
import type { ExecResult, IFileSystem } from 'just-bash';
import type { ToolContext } from '../../contracts/tools.ts';
import type { TestSelection, ValidationResult } from '../../contracts/runner-api.ts';
import { TestId } from '../../contracts/bug.ts';
import { formatValidation, testEditRefusal } from '../common.ts';
import { REPO_ROOT, WorkspaceFs } from './workspace-fs.ts';

export interface BashOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** the last validation a compile/test command ran, if any */
  validation?: ValidationResult;
}

/** Name the shell's builtin `test` never has: `test` with no args or only test ids is rewritten to it. */
const RUN_TESTS_COMMAND = '__hafix_run_tests';
const TEST_ID_OR_CLASS = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+(::[\w$]+)?$/;

type JustBash = typeof import('just-bash');
let justBash: Promise<JustBash> | undefined;
const loadJustBash = (): Promise<JustBash> => (justBash ??= import('just-bash'));

export async function runBash(command: string, ctx: ToolContext): Promise<BashOutcome> {
  const { Bash, InMemoryFs, MountableFs, defineCommand } = await loadJustBash();
  // the bug's tests are read-only files in this shell (testEdits): a write fails like one, saying why
  const repo = await WorkspaceFs.create(ctx.workspace, (entries) => testEditRefusal(ctx, entries));
  const fs = new MountableFs({ base: new InMemoryFs(), mounts: [{ mountPoint: REPO_ROOT, filesystem: repo as IFileSystem }] });
  await fs.mkdir('/tmp', { recursive: true });
  let validation: ValidationResult | undefined;

  const validate = async (tests: TestSelection): Promise<ValidationResult> => {
    validation = await ctx.validator.validate(ctx.workspace, tests, { signal: ctx.signal });
    return validation;
  };
  const compile = async (): Promise<ExecResult> => {
    const result = await validate({ mode: 'listed', tests: [...ctx.bug.failingTests] });
    return result.compiled
      ? { stdout: 'Compilation succeeded.\n', stderr: '', exitCode: 0 }
      : { stdout: '', stderr: `${formatValidation(result)}\n`, exitCode: 1 };
  };
  const testRun = async (tests: TestSelection): Promise<ExecResult> => {
    const result = await validate(tests);
    const text = `${formatValidation(result)}\n`;
    return result.compiled ? { stdout: text, stderr: '', exitCode: 0 } : { stdout: '', stderr: text, exitCode: 1 };
  };
  const selection = (ids: string[]): TestSelection | string => {
    const bad = ids.filter((id) => !TestId.safeParse(id).success);
    if (bad.length) return `test ids look like pkg.Class::method; not understood: ${bad.join(', ')}\n`;
    return ids.length ? { mode: 'listed', tests: ids } : { mode: 'listed', tests: [...ctx.bug.failingTests] };
  };

  const commands = [
    defineCommand('compile', async () => compile()),
    defineCommand(RUN_TESTS_COMMAND, async (args) => {
      const tests = selection(args.filter((a) => a !== '-r'));
      return typeof tests === 'string' ? { stdout: '', stderr: tests, exitCode: 2 } : testRun(tests);
    }),
    defineCommand('defects4j', async (args) => {
      const [sub, ...rest] = args;
      if (sub === 'compile') return compile();
      if (sub === 'test') {
        if (rest.includes('-r')) return testRun({ mode: 'listed', tests: [...ctx.bug.failingTests] });
        const t = rest.indexOf('-t');
        if (t >= 0) {
          const tests = selection(rest[t + 1] ? [rest[t + 1]!] : []);
          return typeof tests === 'string' ? { stdout: '', stderr: tests, exitCode: 2 } : testRun(tests);
        }
        return testRun({ mode: 'failing-first', tests: [...ctx.bug.failingTests] });
      }
      return { stdout: '', stderr: `defects4j ${sub ?? ''}: only "defects4j compile" and "defects4j test [-r] [-t pkg.Class::method]" are available here.\n`, exitCode: 1 };
    }),
  ];

  const bash = new Bash({ fs, cwd: REPO_ROOT, customCommands: commands, env: { HOME: REPO_ROOT, PWD: REPO_ROOT } });
  let script: string;
  try {
    script = rewriteTestCommands(bash, command);
  } catch (err) {
    return { exitCode: 2, stdout: '', stderr: `bash: syntax error: ${err instanceof Error ? err.message : String(err)}\n` };
  }
  try {
    const result = await bash.exec(script, ctx.signal ? { signal: ctx.signal } : {});
    // just-bash's sed -i reports any failed write as "No such file or directory": the real reason goes after it
    const unsaid = repo.refusals.filter((why) => !result.stderr.includes(why));
    const stderr = result.stderr + unsaid.map((why) => `${why}\n`).join('');
    return { exitCode: result.exitCode, stdout: result.stdout, stderr, ...(validation ? { validation } : {}) };
  } catch (err) {
    if (ctx.signal?.aborted) throw err;
    return { exitCode: 1, stdout: '', stderr: `${err instanceof Error ? err.message : String(err)}\n`, ...(validation ? { validation } : {}) };
  }
}

/**
 * `test` is a shell builtin (`test -f x`), so HAFixAgent's `test` command cannot simply be registered. Simple commands
 * named `test` with no arguments, or only test ids / class names (and -r), are renamed to the run-tests command;
 * every other use of `test` keeps its builtin meaning.
 */
function rewriteTestCommands(bash: InstanceType<JustBash['Bash']>, command: string): string {
  let renamed = false;
  const plugin = {
    name: 'hafix-test-command',
    transform(context: { ast: unknown }) {
      visit(context.ast, (node) => {
        if (node.type !== 'SimpleCommand') return;
        const name = literalWord(node.name);
        if (name !== 'test') return;
        const args = (node.args as unknown[]).map(literalWord);
        if (args.every((a) => a !== undefined && (a === '-r' || TEST_ID_OR_CLASS.test(a)))) {
          const part = (node.name as { parts: { value: string }[] }).parts[0]!;
          part.value = RUN_TESTS_COMMAND;
          renamed = true;
        }
      });
      return { ast: context.ast as never };
    },
  };
  bash.registerTransformPlugin(plugin);
  const result = bash.transform(command);
  return renamed ? result.script : command;
}

function literalWord(word: unknown): string | undefined {
  const parts = (word as { parts?: { type: string; value?: string }[] } | null)?.parts;
  if (!parts || parts.length !== 1 || parts[0]!.type !== 'Literal') return undefined;
  return parts[0]!.value;
}

function visit(node: unknown, fn: (node: Record<string, unknown>) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) visit(child, fn);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (typeof record.type === 'string') fn(record);
  for (const value of Object.values(record)) if (value && typeof value === 'object') visit(value, fn);
}
