// renderTemplate's shortcuts (direct fill-in of text + string lookups; only the named variables passed to Jinja)
// give exactly what @huggingface/jinja's Template.render gives with all variables.
import { Template } from '@huggingface/jinja';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../../../worker/strategies/templates.ts';
import { listPresets, resolveStrategy } from '../../../worker/strategies/presets/index.ts';

const golden = JSON.parse(readFileSync(new URL('./golden/vars.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const jinja = (source: string, vars: Record<string, unknown>) => new Template(source).render(vars);

describe('template shortcuts', () => {
  const vars: Record<string, unknown> = {
    ...golden,
    result: { tool: 'bash', ok: true, output: 'line 1\n  {{ not a tag }}\n', elided: 0, returncode: 0 },
    step: { index: 3 },
    error: 'no bash block',
    n: 3,
    f: 1.5,
    yes: true,
    nothing: null,
    list: ['a', 'b'],
    nested: { deep: { text: 'deep text', count: 2 } },
    inherited: Object.create({ hidden: 'from the prototype' }) as Record<string, unknown>,
  };
  const cases = [
    '{{ result.output }}\n',
    'Format error: {{ error }}\n\nReply with one block.\n',
    '{{ nested.deep.text }} / {{ nested.deep.count }}',
    '{{ n }} {{ f }} {{ yes }} [{{ nothing }}] [{{ missing }}] [{{ missing.attr }}]',
    '{{ list }} {{ nested.deep }}',
    '{{ result.output.upper }}|{{ nested.items }}',
    '[{{ inherited.hidden }}]',
    '{{ true }} {{ none }} {{ range }}',
    '',
    'plain text only\n',
    '{% for t in list %}{{ t }},{% endfor %} {{ result["output"] }}{{ error | upper }}',
  ];

  it.each(cases)('%j', (source) => {
    expect(renderTemplate(source, vars)).toBe(jinja(source, vars));
  });

  it('every shipped template, with the golden variables and more variables than it uses', () => {
    for (const p of listPresets()) {
      for (const [section, source] of Object.entries(resolveStrategy(p.id).prompt as Record<string, string | undefined>)) {
        if (source) expect(renderTemplate(source, vars, `${p.id}.${section}`), `${p.id}.${section}`).toBe(jinja(source, vars));
      }
    }
  });
});
