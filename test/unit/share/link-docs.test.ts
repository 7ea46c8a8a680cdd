// docs/formats/bundle.md prints the link length of each preset with a typical edit: the numbers must be the codec's.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { encodeLink } from '../../../worker/share/link-codec.ts';
import { PRESET_IDS, typicalLink } from './typical-links.ts';

describe('docs/formats/bundle.md link lengths', () => {
  it('has one row per preset, with the JSON and link lengths the codec gives', async () => {
    const doc = await readFile('docs/formats/bundle.md', 'utf8');
    const rows = new Map([...doc.matchAll(/^\| (\w+) \| ([\w-]+) \| (\d+) \| (\d+) \|$/gm)].map((m) => [m[1]!, { variant: m[2], json: Number(m[3]), link: Number(m[4]) }]));
    expect([...rows.keys()].sort()).toEqual([...PRESET_IDS].sort());
    for (const preset of PRESET_IDS) {
      const state = typicalLink(preset);
      const measured = { variant: state.config!.variants![0], json: JSON.stringify(state).length, link: (await encodeLink(state, { backend: 'fflate' })).length };
      expect(rows.get(preset), `${preset}: update the table in docs/formats/bundle.md`).toEqual(measured);
    }
  });
});
