import { css } from 'lit';

/** rl-presenter-layout's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const presenterLayoutStyles = css`
  dialog { box-sizing: border-box; width: 100vw; height: 100vh; max-width: 100vw; max-height: 100vh; margin: 0; padding: 0; border: none;
    background: var(--bg); color: var(--ink); overflow-x: hidden; overflow-y: auto; }
  /* large type: every size in the slotted panels (rem and px alike) grows, and the layout reflows in the narrower width */
  .zoom { zoom: 1.3; padding: var(--space-2) var(--space-4); box-sizing: border-box; }
  .bar { display: flex; align-items: center; gap: var(--space-4); justify-content: space-between; margin-bottom: var(--space-2); }
  .bar h2 { margin: 0; overflow-wrap: anywhere; }
  .columns { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: var(--space-4); align-items: start; }
  .columns > * { min-width: 0; }
`;
