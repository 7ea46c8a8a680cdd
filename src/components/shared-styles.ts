// The look every element shares, built on the document's design tokens (src/styles.css; README.md "Design tokens").
// lit scopes styles per shadow root, so an element adopts these explicitly: `static styles = [panelStyles, own]`.
import { css } from 'lit';

/**
 * Tables: dense rows, a header that sticks to the top of whatever scrolls the table, numbers right-aligned in
 * tabular figures (`td.num`), and no word broken in the middle (a cell wraps between words, or cuts with an ellipsis
 * and shows the whole text in its title). A table wider than its column scrolls in a box of its own
 * (`.table-wrap`), never the page. In `panelStyles`; adopt it alone where an element takes nothing else.
 */
export const tableStyles = css`
  /* separate borders: a sticky header keeps its rule while rows scroll under it (a collapsed border stays behind) */
  table { border-collapse: separate; border-spacing: 0; font-size: var(--text-sm); line-height: 1.35; }
  th, td { padding: var(--space-1) var(--space-2); text-align: left; vertical-align: top; border-bottom: 1px solid var(--line);
    overflow-wrap: normal; word-break: normal; }
  thead th { position: sticky; top: 0; z-index: 1; background: var(--panel-2); color: var(--muted); font-size: var(--text-xs);
    font-weight: 600; white-space: nowrap; vertical-align: bottom; }
  tbody tr:last-child > * { border-bottom: none; }
  :is(td, th).num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  :is(td, th).nowrap { white-space: nowrap; }
  /* one line, cut with an ellipsis: the cell's title holds the whole text */
  :is(td, th).clip { max-width: 16rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  /* a wide table scrolls inside this box (both ways): its header sticks to the box's top, the page stays put */
  .table-wrap { overflow: auto; max-width: 100%; max-height: min(70vh, 42rem); border: 1px solid var(--line); border-radius: var(--radius);
    background: var(--panel); }
  .table-wrap > table { min-width: 100%; }
  .table-wrap:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
`;

/** Styles every panel shares: type, panels and cards, notices, buttons, fields, code, the focus ring, and tableStyles. */
export const panelStyles = css`
  :host { display: block; }
  h2 { font-size: var(--text-lg); font-weight: 600; margin: 0 0 var(--space-3); line-height: 1.3; }
  h3 { font-size: var(--text-md); font-weight: 600; margin: var(--space-4) 0 var(--space-2); line-height: 1.3; }
  .panel { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius-lg); padding: var(--space-4); min-width: 0; }
  .muted { color: var(--muted); }
  .ok { color: var(--ok); }
  .bad { color: var(--bad); }
  .warn { color: var(--warn); }
  .error { color: var(--bad); background: var(--bad-soft); border: 1px solid color-mix(in srgb, var(--bad) 30%, transparent); border-radius: var(--radius);
    padding: var(--space-2) var(--space-3); white-space: pre-wrap; overflow-wrap: anywhere; }
  .tag { display: inline-block; font-size: var(--text-xs); padding: 0 var(--space-1); border-radius: var(--radius-sm); background: var(--accent-soft);
    color: var(--ink); margin-right: var(--space-1); }
  pre, code, kbd { font-family: var(--font-mono); font-size: var(--text-sm); }
  pre { background: var(--code-bg); padding: var(--space-2) var(--space-3); border-radius: var(--radius); overflow: auto; max-height: 28rem;
    margin: var(--space-1) 0; white-space: pre-wrap; overflow-wrap: anywhere; }
  button { font: inherit; font-size: var(--text-sm); line-height: 1.3; padding: var(--space-1) var(--space-3); border-radius: var(--radius);
    border: 1px solid var(--line-strong); background: var(--panel); color: var(--ink); cursor: pointer; }
  button:hover:not(:disabled) { background: var(--panel-2); }
  button.primary { background: var(--accent); color: var(--on-accent); border-color: var(--accent); }
  button.primary:hover:not(:disabled) { background: color-mix(in srgb, var(--accent) 88%, black); }
  button:disabled { opacity: 0.5; cursor: default; }
  /* a visible keyboard focus on every control (the browsers' default ring is faint on these backgrounds) */
  :is(button, a, input, select, textarea, summary, [tabindex]):focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  a { color: var(--accent); }
  /* read by a screen reader, not shown (a column header whose cells say it all) */
  .visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }
  label { display: block; margin: var(--space-2) 0; font-size: var(--text-sm); }
  input, select, textarea { font: inherit; font-size: var(--text-sm); padding: var(--space-1) var(--space-2); border: 1px solid var(--line-strong);
    border-radius: var(--radius-sm); box-sizing: border-box; background: var(--panel); color: var(--ink); max-width: 100%; }
  input[type='checkbox'], input[type='radio'] { accent-color: var(--accent); }
  input[type='text'], input[type='password'], input[type='url'], textarea, select { width: 100%; }
  ${tableStyles}
`;
