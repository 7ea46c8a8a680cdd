// Golden tests: the shipped prompt templates render exactly as Python Jinja2 would
// (Environment(trim_blocks=True, lstrip_blocks=True)). The expected outputs in golden/ were written by
// hand; each golden file ends with one newline that is not part of the rendered text.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../../../worker/strategies/templates.ts';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';

const dir = new URL('./golden/', import.meta.url);
const vars = JSON.parse(readFileSync(new URL('vars.json', dir), 'utf8')) as Record<string, unknown>;

const cases: [preset: string, section: 'system' | 'instance' | 'cycle' | 'formatError'][] = [
  ['oneshot', 'instance'],
  ['hafixagent', 'instance'],
  ['hafixagent', 'formatError'],
  ['passerine', 'system'],
  ['repairagent', 'cycle'],
];

describe('prompt templates (golden)', () => {
  it.each(cases)('%s %s', (preset, section) => {
    const template = resolveStrategy(preset).prompt[section]!;
    const expected = readFileSync(new URL(`${preset}.${section}.txt`, dir), 'utf8');
    expect(`${renderTemplate(template, vars)}\n`).toBe(expected);
  });

  it('names the template when rendering fails', () => {
    expect(() => renderTemplate('{% for x in %}', {}, 'demo.system')).toThrow(/prompt template "demo.system" failed to render/);
  });
});
