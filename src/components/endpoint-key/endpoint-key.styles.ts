import { css } from 'lit';

/** rl-endpoint-key's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const endpointKeyStyles = css`
  .key-needed { border-left: 4px solid var(--bad); background: var(--panel); padding: var(--space-2) var(--space-3); overflow-wrap: anywhere; }
  .row { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; }
`;
