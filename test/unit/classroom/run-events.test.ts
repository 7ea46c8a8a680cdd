// What the classroom reads from a run's events, on a real RepairAgent run (Node engine, the real runner for its
// startup run_tests) that a person plays through the RunManager: 'run-started' carries the strategy's outline (states,
// transitions, tools with their arguments, reply format), and each 'human-turn' names the state it is in — so the form
// offers that state's tools and the diagram lights it.
import { expect, it } from 'vitest';
import { useRunManagerHome } from '../../helpers/run-manager-home.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { strategyOutline } from '../../../worker/strategies/strategy-outline.ts';
import type { RunEvent } from '../../../worker/contracts/runs.ts';
import { argsFromFields, composeReply, toolsAllowedIn } from '../../../src/components/classroom/compose-reply.ts';

const lab = useRunManagerHome('classroom');

it("a person's RepairAgent turns name their state; the run starts with the strategy's outline", async () => {
  const runs = lab.runs();
  const events: RunEvent[] = [];
  let answered = 0;
  const done = runs.start({ bugId: 'textkit-1', preset: 'repairagent', model: { kind: 'human' }, runner: lab.runner }, (e) => {
    events.push(e);
    if (e.type !== 'human-turn') return;
    const outline = events.find((x) => x.type === 'run-started')!.outline!;
    if (answered++ === 0) {
      // the first turn: answered with the form's express_hypothesis, one of the start state's tools
      const tool = toolsAllowedIn(outline, e.state).find((t) => t.name === 'express_hypothesis')!;
      const text = composeReply(outline.format, { tool, args: argsFromFields(tool, { hypothesis: 'the early return uses < where <= is meant' }), thought: 'the limit itself fits' });
      void runs.submitHumanReply(e.runId, text);
    } else void runs.stop(e.runId);
  });
  const [trajectory] = await done;

  const started = events.find((e) => e.type === 'run-started');
  expect(started?.type === 'run-started' && started.outline).toEqual(strategyOutline(resolveStrategy('repairagent')));
  const turns = events.filter((e) => e.type === 'human-turn');
  expect(turns.map((t) => t.type === 'human-turn' && [t.step, t.state])).toEqual([
    [0, 'collect information to understand the bug'],
    [1, 'collect information to fix the bug'],
  ]);
  expect(trajectory!.steps[0]!.parsed?.command).toEqual({ name: 'express_hypothesis', args: { hypothesis: 'the early return uses < where <= is meant' } });
  expect(trajectory!.steps[0]!.stateAfter).toBe('collect information to fix the bug');
});
