import { css } from 'lit';

/** rl-endpoint-key's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const endpointKeyStyles = css`
  .key-needed { border-left: 4px solid var(--bad); background: #fff; padding: 0.4rem 0.6rem; overflow-wrap: anywhere; }
  .row { display: flex; gap: 0.4rem; align-items: center; }
`;
