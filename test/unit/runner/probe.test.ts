import { describe, expect, it } from 'vitest';
import { _internal } from '../../../runner/src/sandbox.ts';

const limits = { nproc: 777, cpuSeconds: 60, fileSizeBytes: 7_777_777 };
const netDev = (ifaces: string[]) =>
  ['Inter-|   Receive', ' face |bytes', ...ifaces.map((i) => `  ${i}: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0`)].join('\n');

describe('sandbox probe interpretation', () => {
  it('claims isolation only for what the probe saw', () => {
    const ok = `${netDev(['lo'])}\n::usr\n::tmp\n::limits\nMax processes             777                  777                  processes\nMax file size             7777777              7777777              bytes\n::uid\n65534\n`;
    expect(_internal.interpretProbe(ok, 'marker', limits)).toMatchObject({ network: true, readOnlySystem: true, privateTmp: true, processLimits: true });

    const leaky = `${netDev(['lo', 'eth0'])}\n::usr\nWRITABLE\n::tmp\nmarker\n::limits\n::uid\n0\n`;
    const seen = _internal.interpretProbe(leaky, 'marker', limits);
    expect(seen).toMatchObject({ network: false, readOnlySystem: false, privateTmp: false, processLimits: false });
    expect(seen.notes.join(' ')).toContain('eth0');
  });
});
