// Continuing interrupted runs: the host's bug's saved runs that a reload or a crash stopped (looked up again whenever
// the bug changes), and continuing one of them through the run stream. A run another tab is still running is not
// listed: the engine holds it under a Web Lock (worker/runs/run-manager.ts).
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { RunRequest } from '../../../worker/contracts/runs.ts';
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import type { RunSummary } from '../../../worker/contracts/runs.ts';
import { getEngine } from '../../engine-client.ts';
import type { RunStreamController } from './run-stream-controller.ts';

type Engine = ReturnType<typeof getEngine>;

export class ContinueController implements ReactiveController {
  /** this bug's saved runs that a reload or crash stopped: they can be continued */
  runs: RunSummary[] = [];
  /** the bug whose interrupted runs were looked up last (the list is current for it) */
  checkedFor: string | undefined;
  /** the bug a lookup was started for */
  private asked: string | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & { bugId: string | undefined },
    private readonly stream: RunStreamController,
    private readonly engine: () => Engine = getEngine,
  ) {
    host.addController(this);
  }

  hostUpdated() {
    if (this.host.bugId !== this.asked) {
      this.asked = this.host.bugId;
      void this.find();
    }
  }

  private async find() {
    const bugId = this.host.bugId;
    try {
      const runs = bugId ? (await this.engine().listRuns({ experiments: false })).filter((r) => r.bugId === bugId && r.interrupted) : [];
      if (bugId === this.host.bugId) {
        this.runs = runs;
        this.checkedFor = bugId;
        this.host.requestUpdate();
      }
    } catch (e) {
      this.stream.fail(e instanceof Error ? e.message : String(e));
    }
  }

  /** Continues `run` with the settings `settingsFor` gives; its saved steps are shown first. */
  async continue(run: RunSummary, settingsFor: (config: Trajectory['config']) => Pick<RunRequest, 'model' | 'runner'>) {
    if (this.stream.running) return;
    this.runs = this.runs.filter((r) => r.runId !== run.runId);
    this.host.requestUpdate();
    if (!(await this.stream.continueSaved(run.runId, settingsFor))) void this.find();
  }
}
