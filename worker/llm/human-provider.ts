// The keyless classroom mode: a person plays the model. Each completion request is handed to `ask`, which
// resolves with the person's typed reply. HumanChannel adapts that to a UI: it announces the waiting turn
// and is answered from outside (`reply`). Usage is estimated, as no tokenizer is involved.
import { LlmError, type ChatMessage, type CompletionRequest, type CompletionResponse, type LlmProvider } from '../contracts/llm.ts';
import { estimateUsage } from './usage-estimate.ts';
import { abortedCall } from './abort-reason.ts';

export interface HumanTurn {
  /** 0-based index of the step this turn is (the replies asked for so far, plus a continued run's earlier steps) */
  step: number;
  messages: ChatMessage[];
}

/** the run's stop as its signal tells it ("Stopped by you at step 3"), else a sentence of our own */
const aborted = (signal: AbortSignal | undefined) => abortedCall(signal, 'The run was stopped while waiting for the human reply.');

/** `firstStep`: the step the first turn is (a continued run's turns go on from its saved steps) */
export function createHumanProvider(ask: (turn: HumanTurn, signal?: AbortSignal) => Promise<string>, firstStep = 0): LlmProvider {
  let step = firstStep;
  return {
    id: 'human',
    async complete(req: CompletionRequest): Promise<CompletionResponse> {
      const started = Date.now();
      if (req.signal?.aborted) throw aborted(req.signal);
      const content = await new Promise<string>((resolve, reject) => {
        const onAbort = () => reject(aborted(req.signal));
        req.signal?.addEventListener('abort', onAbort, { once: true });
        ask({ step: step++, messages: req.messages }, req.signal).then(
          (text) => (req.signal?.removeEventListener('abort', onAbort), resolve(text)),
          reject,
        );
      });
      return { content, model: 'human', usage: estimateUsage(req.messages, content), latencyMs: Date.now() - started, meta: { usageEstimated: true } };
    },
  };
}

/** A human provider whose turns are announced to a UI and answered by `reply`. */
export class HumanChannel {
  readonly provider: LlmProvider;
  private waiting?: { turn: HumanTurn; resolve: (text: string) => void };

  constructor(onTurn: (turn: HumanTurn) => void, firstStep = 0) {
    this.provider = createHumanProvider(
      (turn, signal) =>
        new Promise<string>((resolve) => {
          this.waiting = { turn, resolve };
          signal?.addEventListener('abort', () => (this.waiting = undefined), { once: true });
          onTurn(turn);
        }),
      firstStep,
    );
  }

  /** the turn waiting for a reply, if any */
  pending(): HumanTurn | undefined {
    return this.waiting?.turn;
  }

  reply(text: string): void {
    const w = this.waiting;
    if (!w) throw new LlmError('Nothing to answer: no prompt is waiting for a human reply right now.', 'bad-request');
    this.waiting = undefined;
    w.resolve(text);
  }
}
