import { css } from 'lit';

/** rl-presenter-layout's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const presenterLayoutStyles = css`
  dialog { box-sizing: border-box; width: 100vw; height: 100vh; max-width: 100vw; max-height: 100vh; margin: 0; padding: 0; border: none;
    background: var(--bg, #f6f7f9); overflow-x: hidden; overflow-y: auto; }
  /* large type: every size in the slotted panels (rem and px alike) grows, and the layout reflows in the narrower width */
  .zoom { zoom: 1.3; padding: 0.6rem 1rem; box-sizing: border-box; }
  .bar { display: flex; align-items: center; gap: 1rem; justify-content: space-between; margin-bottom: 0.6rem; }
  .bar h2 { margin: 0; overflow-wrap: anywhere; }
  .columns { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1rem; align-items: start; }
  .columns > * { min-width: 0; }
`;
