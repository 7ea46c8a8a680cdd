import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../../runner/src/openapi.ts';

describe('docs/openapi.json', () => {
  it('matches the zod contracts (regenerate: node --import tsx runner/src/openapi.ts > docs/openapi.json)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8')) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenApi())));
  });

  it('documents every route', () => {
    expect(Object.keys((buildOpenApi() as { paths: Record<string, unknown> }).paths)).toEqual([
      '/v1/health',
      '/v1/snapshots',
      '/v1/blobs',
      '/v1/validate',
      '/v1/validate-batch',
      '/cors-proxy/{host}/{path}',
    ]);
  });
});
