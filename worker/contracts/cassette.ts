// Cassette: the recorded model calls of one run, replayed in order by worker/llm/replay-provider.ts
// and served over HTTP by worker/llm/cassette-server.ts. Each call carries the hash of the prompt it
// answered, so a replay notices the first step where the engine asks something different.
import { z } from 'zod';

export const CASSETTE_SCHEMA_VERSION = 1;

export const CassetteMessage = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string(),
});

export const CassetteUsage = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
});

export const CassetteCall = z.object({
  /** sha-256 (hex) of the canonical JSON of the messages: see worker/llm/prompt-hash.ts */
  promptHash: z.string().regex(/^[0-9a-f]{64}$/, 'promptHash is a 64-digit lowercase hex sha-256'),
  /** the prompt itself; optional, but without it a divergence cannot show the first differing message */
  messages: z.array(CassetteMessage).optional(),
  /** free-form tag of the request (agent, write_fix-variants, …) */
  purpose: z.string().optional(),
  response: z.object({
    content: z.string(),
    usage: CassetteUsage,
    /** model name the response reported */
    model: z.string().optional(),
    /** latency when recorded (replay reports its own) */
    latencyMs: z.number().nonnegative().optional(),
  }),
});
export type CassetteCall = z.infer<typeof CassetteCall>;

export const Cassette = z.object({
  schemaVersion: z.literal(CASSETTE_SCHEMA_VERSION),
  kind: z.literal('repairlab-cassette'),
  /** model the calls were recorded from (for hand-authored replies: the name the cassette answers as) */
  model: z.string(),
  /** sampling settings of the recording */
  settings: z
    .object({
      temperature: z.number().optional(),
      topP: z.number().optional(),
      seed: z.number().int().optional(),
      maxTokens: z.number().int().optional(),
    })
    .default({}),
  /** where the replies came from: say so honestly (hand-authored replies recorded through the engine, or a real model) */
  provenance: z.object({
    source: z.enum(['hand-authored', 'model', 'mixed']),
    note: z.string(),
    recordedAt: z.string(),
    bugId: z.string().optional(),
    preset: z.string().optional(),
    /** strategy overrides the recording ran with; a replay must use the same ones to send the same prompts */
    overrides: z.record(z.string(), z.unknown()).optional(),
  }),
  calls: z.array(CassetteCall),
});
export type Cassette = z.infer<typeof Cassette>;

/** Parse unknown JSON as a cassette; the error names the file and the first offending field. */
export function parseCassette(json: unknown, source = 'cassette'): Cassette {
  const result = Cassette.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue ? issue.path.join('.') || '(top level)' : '(unknown)';
    throw new Error(`${source} is not a valid RepairLab cassette (schemaVersion ${CASSETTE_SCHEMA_VERSION}): ${where}: ${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}
