import { css } from 'lit';

/** rl-commit-log's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const commitLogStyles = css`
  ol { list-style: none; padding: 0; margin: 0; max-height: 26rem; overflow: auto; border: 1px solid var(--line); border-radius: var(--radius); }
  li { display: flex; flex-wrap: wrap; align-items: baseline; gap: var(--space-1) var(--space-2); padding: var(--space-1) var(--space-2); border-bottom: 1px solid var(--line); }
  li:last-child { border-bottom: none; }
  li.browsed { background: var(--panel-2); }
  li.buggy { box-shadow: inset 3px 0 0 var(--bad); }
  li.fixed { box-shadow: inset 3px 0 0 var(--ok); }
  .subject { flex: 1 1 16rem; min-width: 0; font-size: var(--text-sm); overflow-wrap: anywhere; }
  .meta { font-size: var(--text-xs); color: var(--muted); }
  .actions { display: flex; gap: var(--space-1); }
  .actions button { padding: 0 var(--space-2); font-size: var(--text-xs); }
  button[aria-pressed='true'] { background: var(--accent-soft); border-color: var(--accent); }
  details { flex-basis: 100%; font-size: var(--text-xs); }
  code { font-family: var(--font-mono); }
`;
