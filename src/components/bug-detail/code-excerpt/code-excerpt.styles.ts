import { css } from 'lit';

/** rl-code-excerpt's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const codeExcerptStyles = css`
  :host { display: block; }
  .file { font-size: var(--text-xs); color: var(--muted); margin-top: var(--space-2); font-family: var(--font-mono); overflow-wrap: anywhere; }
  pre { font-family: var(--font-mono); font-size: var(--text-sm); background: var(--code-bg); border-radius: var(--radius); padding: var(--space-1) 0;
    margin: var(--space-1) 0; overflow: auto; max-height: 26rem; }
  .line { display: block; padding: 0 var(--space-3); white-space: pre; }
  .no { display: inline-block; width: 3.2rem; color: var(--muted); user-select: none; }
  .hl { background: var(--highlight); }
  /* a long line scrolls inside the box; the browser lets the keyboard focus it to scroll, so show where focus is */
  pre:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
`;
