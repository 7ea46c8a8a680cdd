import { css } from 'lit';

/** Styles every panel shares (lit scopes styles per component, so they are adopted explicitly). */
export const panelStyles = css`
  :host { display: block; }
  h2 { font-size: 1.1rem; margin: 0 0 0.6rem; }
  h3 { font-size: 0.95rem; margin: 1rem 0 0.4rem; }
  .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 1rem; }
  .muted { color: var(--muted); }
  .error { color: var(--bad); background: #fbeceb; border: 1px solid #f2c4c0; border-radius: 6px; padding: 0.5rem 0.7rem; white-space: pre-wrap; }
  .ok { color: var(--ok); }
  .bad { color: var(--bad); }
  .tag { display: inline-block; font-size: 0.75rem; padding: 0.05rem 0.4rem; border-radius: 4px; background: #eef1f8; color: #33466f; margin-right: 0.25rem; }
  pre, code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.8rem; }
  pre { background: var(--code-bg); padding: 0.6rem; border-radius: 6px; overflow: auto; max-height: 28rem; margin: 0.3rem 0; white-space: pre-wrap; overflow-wrap: anywhere; }
  button { font: inherit; padding: 0.35rem 0.8rem; border-radius: 6px; border: 1px solid var(--line); background: #fff; cursor: pointer; }
  button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
  button:disabled { opacity: 0.5; cursor: default; }
  /* a visible keyboard focus on every control (the browsers' default ring is faint on these backgrounds) */
  :is(button, a, input, select, textarea, summary, [tabindex]):focus-visible { outline: 3px solid var(--focus, #1a56db); outline-offset: 2px; }
  label { display: block; margin: 0.4rem 0; font-size: 0.85rem; }
  input, select, textarea { font: inherit; padding: 0.3rem 0.4rem; border: 1px solid var(--line); border-radius: 5px; box-sizing: border-box; }
  input[type='text'], input[type='password'], input[type='url'], textarea, select { width: 100%; }
`;
