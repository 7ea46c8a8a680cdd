import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../runner/src/body.ts';
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

  it('documents the body limits the server enforces, the full-disk answer and the proxy\'s truthful refusals', () => {
    type Op = { responses: Record<string, { description: string }> };
    const paths = (buildOpenApi() as { paths: Record<string, Record<string, Op>> }).paths;
    for (const route of Object.keys(MAX_BODY_BYTES)) {
      const [method, p] = route.split(' ') as [string, string];
      const op = paths[p]![method.toLowerCase()]!;
      expect(op.responses['413']!.description, route).toContain(`${MAX_BODY_BYTES[route]! / (1024 * 1024)} MB`);
      expect(op.responses['507'], route).toBeDefined();
    }
    const proxy = paths['/cors-proxy/{host}/{path}']!;
    for (const op of [proxy.get!, proxy.post!]) {
      expect(op.responses['403']!.description).toContain('refused: host not allowed');
      expect(op.responses['502']!.description).toContain('could not connect');
    }
  });
});
