// The configured API key is in no recorded text, whatever echoes it: a model (a real OpenAI-compatible HTTP server,
// the cassette server, answering with replies that contain a canary key) puts the key in its prose and in the
// patch it writes. Nothing the run stores — trajectory, step records, the cassette made from it, a cassette recorded
// from the provider — holds the key. Real runner for the patch's validation.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useRunManagerHome } from '../../helpers/run-manager-home.ts';
import { startCassetteServer } from '../../../worker/llm/cassette-server.node.ts';
import { createOpenAiProvider } from '../../../worker/llm/openai-provider.ts';
import { createRecordingProvider } from '../../../worker/llm/recording-provider.ts';
import { cassetteFromTrajectory } from '../../../worker/records/cassette-from-trajectory.ts';

/** a key no real provider issued; long and distinctive so any copy of it is found */
const CANARY = 'canary-key-7f3a9c1e5b2d4f60';
const lab = useRunManagerHome('redact');

/** every file under `dir`, as text */
function allText(dir: string): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) => (statSync(path).isDirectory() ? allText(path) : readFileSync(path, 'utf8')))
    .join('\n');
}

it('a reply that echoes the key is recorded without it: prompts, replies, patches, records and cassettes', async () => {
  const engine = lab.engine();
  const bug = await engine.catalog.bug('textkit-1');
  // the ground truth with the key written into a comment of the patched file
  const patch = bug.groundTruth.patch!.replace(/^\+(?!\+\+)(.*)$/m, (_line, code: string) => `+${code} // ${CANARY}`);
  const replies = [`Your key is ${CANARY}, by the way.\n\`\`\`diff\n${patch}\`\`\`\n`, `Still ${CANARY}.\n\`\`\`diff\n${patch}\`\`\`\n`];
  const server = await startCassetteServer({ replies, model: 'canary-model' });
  try {
    const runs = lab.runs();
    const [t] = await runs.start(
      {
        bugId: 'textkit-1',
        preset: 'oneshot',
        overrides: { budgets: { maxSteps: 2 } },
        model: { kind: 'openai', baseURL: server.baseURL, model: 'canary-model', apiKey: CANARY },
        runner: lab.runner,
        prices: { 'canary-model': { inputPerMTok: 0, outputPerMTok: 0 } },
      },
      () => undefined,
    );
    // the key went to the server as the bearer token (it is the configured key) …
    expect(server.requests.some((r) => r.headers.authorization === `Bearer ${CANARY}`)).toBe(true);
    // … and came back in the replies; the record holds none of it
    const recorded = JSON.stringify(t);
    expect(recorded).not.toContain(CANARY);
    expect(t!.steps[0]!.response?.content).toContain('Your key is [redacted key]');
    expect(t!.steps[0]!.overlayChange?.diff ?? '').toContain('[redacted key]');
    expect(t!.outcome?.finalPatch).toContain('[redacted key]');
    expect(allText(lab.home)).not.toContain(CANARY);
    // a cassette made from the run
    expect(JSON.stringify(cassetteFromTrajectory(t!))).not.toContain(CANARY);

    // a cassette recorded straight from the provider
    server.rewind();
    const recorder = createRecordingProvider(createOpenAiProvider({ baseURL: server.baseURL, model: 'canary-model', apiKey: CANARY }), { secrets: [CANARY] });
    const answer = await recorder.complete({ messages: [{ role: 'user', content: `my key is ${CANARY}` }] });
    expect(answer.content).toBe('Your key is [redacted key], by the way.\n```diff\n' + patch.replaceAll(CANARY, '[redacted key]') + '```\n');
    expect(JSON.stringify(recorder.toCassette({ provenance: { source: 'model', note: 'redaction test', recordedAt: new Date().toISOString() } }))).not.toContain(CANARY);
  } finally {
    await server.close();
  }
}, 240_000);
