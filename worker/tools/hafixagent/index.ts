// HAFixAgent's single tool: run one bash command in the repository (mini-swe-agent style observation:
// return code + stdout/stderr; long output keeps the first and last 7,500 characters, as in the paper).
import type { Tool } from '../../contracts/tools.ts';
import { ToolRefusal, capOutput, capPolicy, defineTool, stringArg, type CapPolicy } from '../common.ts';
import { runBash } from './bash.ts';

const HAFIX_CAP: CapPolicy = { maxChars: 15_000, mode: 'head-tail' };
/** Paper: COMPLETE_REPAIR_SIGNAL; released code: COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT. Override with settings.completionSentinel. */
export const DEFAULT_SENTINELS = ['COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT', 'COMPLETE_REPAIR_SIGNAL'];

export const bash = defineTool(
  {
    name: 'bash',
    toolkit: 'hafixagent',
    description:
      'Run one bash command in the repository root (chain with && or ||; pipes and redirection work). Available: grep, sed -n, sed -i, find, ' +
      'head, tail, cat, echo, wc, ls and more; `compile` builds the project; `test` runs the failing tests (or `test pkg.Class::method`); ' +
      '`defects4j compile` and `defects4j test [-r] [-t pkg.Class::method]` work too. When the fix is done, run `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`.',
    args: [{ name: 'command', type: 'string', description: 'the bash command line', required: true }],
    follows: 'paper §3 and released code (mini-swe-agent bash loop; observation = return code + output, 7,500 + 7,500 chars kept)',
  },
  HAFIX_CAP,
  async (args, ctx) => {
    const command = stringArg(args, 'command', { required: true, aliases: ['cmd', 'script', 'code'] });
    if (command.trim() === '') throw new ToolRefusal('the command is empty; send one bash command, e.g. grep -rn "foo" src.');
    const result = await runBash(command, ctx);
    const combined = result.stdout + result.stderr;
    const sentinels = typeof ctx.settings.completionSentinel === 'string' ? [ctx.settings.completionSentinel] : DEFAULT_SENTINELS;
    const firstLine = result.stdout.trimStart().split('\n')[0]?.trim() ?? '';
    const finished = sentinels.includes(firstLine) ? { success: true, reason: firstLine } : undefined;
    const wrap = (text: string) => `<returncode>${result.exitCode}</returncode>\n<output>\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}</output>`;
    return {
      ok: true,
      output: wrap(combined),
      shown: wrap(capOutput(combined, capPolicy(ctx, HAFIX_CAP))),
      data: { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr },
      ...(result.validation ? { validation: result.validation } : {}),
      ...(finished ? { finished } : {}),
    };
  },
);

export const hafixTools: Tool[] = [bash];
