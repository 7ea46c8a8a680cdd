// Every shipped prompt template renders byte for byte as Python Jinja2 renders it
// (Environment(trim_blocks=True, lstrip_blocks=True), Jinja2's defaults otherwise), on realistic variables.
// Python Jinja2 is installed by the test command's setup (Debian: python3-jinja2).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../../../worker/strategies/templates.ts';
import { listPresets, resolveStrategy } from '../../../worker/strategies/presets/index.ts';

const vars = JSON.parse(readFileSync(new URL('./golden/vars.json', import.meta.url), 'utf8')) as Record<string, unknown>;

const RENDER = `
import json, sys
from jinja2 import Environment, StrictUndefined
job = json.load(sys.stdin)
env = Environment(trim_blocks=True, lstrip_blocks=True)
out = {}
for name, source in job["templates"].items():
    out[name] = env.from_string(source).render(**job["vars"])
json.dump(out, sys.stdout)
`;

/** A python3 that has Jinja2 (the PATH's, else Debian's). */
function python(): string | undefined {
  for (const exe of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(exe, ['-c', 'import jinja2'], { stdio: 'ignore' });
      return exe;
    } catch {
      // try the next one
    }
  }
  return undefined;
}

const exe = python();
const templates: Record<string, string> = {};
for (const p of listPresets()) {
  const prompt = resolveStrategy(p.id).prompt as Record<string, string | undefined>;
  for (const [section, source] of Object.entries(prompt)) if (source) templates[`${p.id}.${section}`] = source;
}

describe.skipIf(!exe)('prompt templates: @huggingface/jinja vs Python Jinja2', () => {
  const expected = exe ? (JSON.parse(execFileSync(exe, ['-c', RENDER], { input: JSON.stringify({ templates, vars }), encoding: 'utf8' })) as Record<string, string>) : {};

  it('covers every section of every preset', () => {
    expect(Object.keys(templates).length).toBeGreaterThanOrEqual(4 * 4);
  });

  it.each(Object.keys(templates))('%s', (name) => {
    expect(renderTemplate(templates[name]!, vars, name)).toBe(expected[name]);
  });
});

it('finds Python Jinja2 (install python3-jinja2, as the test command does)', () => {
  expect(exe, 'python3 with jinja2 was not found: the template parity tests above were skipped').toBeDefined();
});
