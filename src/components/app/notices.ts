// The app's one notice area: what the app (and any element, by the `notice` event) has to tell the user that belongs
// to no single view — a load that failed, an import in progress, a run id copied. Notices used to pile up at the top
// of the page, one more block per message; here each has an id, and a notice with the id of one shown replaces it in
// place. Every notice can be dismissed; information goes by itself after a few seconds, a warning or an error stays
// until dismissed (it may need acting on).
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export type NoticeKind = 'info' | 'success' | 'warning' | 'error';

export interface Notice {
  /** what the notice is about: a notice with the same id replaces it (a second "Run id copied" is not a second notice) */
  id: string;
  kind: NoticeKind;
  text: string;
  /**
   * milliseconds until it goes by itself; 0: it stays until dismissed (or replaced). Default: INFO_MS for info and
   * success, 0 for a warning or an error.
   */
  expiresMs?: number;
  /** the notice's data-testid (tests find it by the name it always had) */
  testId?: string;
}

/** How long information stays: long enough to read two lines. */
export const INFO_MS = 6000;

/** The notices after `notice` is posted: replaced in place when its id is shown, else added last. */
export function postNotice(list: readonly Notice[], notice: Notice): Notice[] {
  const at = list.findIndex((n) => n.id === notice.id);
  if (at < 0) return [...list, notice];
  return list.map((n, i) => (i === at ? notice : n));
}

export function expiryOf(notice: Notice): number {
  return notice.expiresMs ?? (notice.kind === 'info' || notice.kind === 'success' ? INFO_MS : 0);
}

/** The notices on show, each one's expiry timer, and the host asked to render again when they change. */
export class NoticeController implements ReactiveController {
  list: Notice[] = [];
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected() {}

  hostDisconnected() {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  /** Shows `notice`, in place of the one with its id; its expiry starts again. */
  post(notice: Notice) {
    this.list = postNotice(this.list, notice);
    clearTimeout(this.timers.get(notice.id));
    this.timers.delete(notice.id);
    const ms = expiryOf(notice);
    // the timer removes this very notice: a later one posted under the same id has its own timer
    if (ms > 0) this.timers.set(notice.id, setTimeout(() => this.list.includes(notice) && this.dismiss(notice.id), ms));
    this.host.requestUpdate();
  }

  dismiss(id: string) {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    if (!this.list.some((n) => n.id === id)) return;
    this.list = this.list.filter((n) => n.id !== id);
    this.host.requestUpdate();
  }
}
