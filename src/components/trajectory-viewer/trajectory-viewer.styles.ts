import { css } from 'lit';

/** rl-trajectory-viewer's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const trajectoryViewerStyles = css`
  .bar { display: flex; flex-wrap: wrap; gap: 0.4rem 0.8rem; align-items: center; margin-bottom: 0.5rem; }
  .bar input { width: 14rem; max-width: 100%; }
  .keys { font-size: 0.75rem; }
  .layout { display: grid; grid-template-columns: minmax(11rem, 16rem) minmax(0, 1fr); gap: 0.8rem; align-items: start; }
  .layout.truth { grid-template-columns: minmax(11rem, 14rem) minmax(0, 1fr) minmax(0, 1fr); }
  @media (max-width: 60rem) { .layout, .layout.truth { grid-template-columns: minmax(0, 1fr); } }
  .layout > * { min-width: 0; }
  ol { list-style: none; margin: 0; padding: 0; max-height: 70vh; overflow-y: auto; border: 1px solid var(--line); border-radius: 6px; }
  li { display: flex; gap: 0.4rem; padding: 0.25rem 0.4rem; font-size: 0.8rem; cursor: pointer; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
  li[aria-current='step'] { background: #e8eefc; font-weight: 600; }
  li.match { box-shadow: inset 3px 0 0 #e0b000; }
  li .n { color: var(--muted); min-width: 2.2rem; }
  li .v { margin-left: auto; white-space: nowrap; }
  .collapsed { padding: 0.5rem; border: 1px dashed var(--line); border-radius: 6px; }
  aside { border-left: 3px solid var(--ok); padding-left: 0.6rem; }
`;
