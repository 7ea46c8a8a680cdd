import { css } from 'lit';

/** rl-code-excerpt's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const codeExcerptStyles = css`
  :host { display: block; }
  .file { font-size: 0.8rem; color: var(--muted); margin-top: 0.5rem; }
  pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.8rem; background: var(--code-bg); border-radius: 6px; padding: 0.4rem 0; margin: 0.2rem 0; overflow: auto; max-height: 26rem; }
  .line { display: block; padding: 0 0.6rem; white-space: pre; }
  .no { display: inline-block; width: 3.2rem; color: var(--muted); user-select: none; }
  .hl { background: #fff1c2; }
  /* a long line scrolls inside the box; the browser lets the keyboard focus it to scroll, so show where focus is */
  pre:focus-visible { outline: 3px solid var(--focus, #1a56db); outline-offset: 2px; }
`;
