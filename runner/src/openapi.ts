// docs/openapi.json is generated from the zod contracts (worker/contracts/runner-api.ts) so the two cannot drift:
//   node --import tsx runner/src/openapi.ts > docs/openapi.json
// test/unit/runner/openapi.test.ts fails when the committed file differs from this output.
import { z } from 'zod';
import {
  BlobUpload,
  Health,
  RunnerErrorBody,
  SnapshotManifest,
  SnapshotStatus,
  ValidateBatchRequest,
  ValidateBatchResponse,
  ValidateRequest,
  ValidationResult,
} from '../../worker/contracts/runner-api.ts';
import { MAX_BODY_BYTES } from './body.ts';
import { RUNNER_VERSION } from './version.ts';

type Json = Record<string, unknown>;

function schema(s: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const json = (ref: string, description: string) => ({ description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } });
const common = {
  '401': error('Missing or wrong bearer token (code `unauthorized`).'),
  '403': error('The request came from a browser origin not in the allow-list (code `forbidden-origin`).'),
};
/** Body limits of body.ts MAX_BODY_BYTES, in MB. */
const tooLarge = (route: string) =>
  error(`The body exceeds ${MAX_BODY_BYTES[route]! / (1024 * 1024)} MB (code \`too-large\`); refused before it is read (see docs/runner-api.md "HTTP limits and errors").`);
const diskFull = error('The disk of the runner\'s data directory is full (code `disk-full`); the message names the directory.');

const proxyParameters = [
  { name: 'host', in: 'path', required: true, schema: { type: 'string' } },
  { name: 'path', in: 'path', required: true, schema: { type: 'string' } },
];
const proxyResponses = {
  '200': { description: 'Proxied answer of the git host (streamed).' },
  '400': error('A path segment is a dot segment (plain or percent-encoded), empty, or holds `\\`, `@`, `?` or `#` (code `bad-request`).'),
  '403': error('`refused: host not allowed` (code `forbidden-host`), a push or anything but clone/fetch (code `forbidden`), or an origin outside the allow-list (code `forbidden-origin`).'),
  '502': error('`could not resolve` the host, allowed or not (its name does not resolve), or `could not connect` to the allowed git host (code `unreachable-host`).'),
};

export function buildOpenApi(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'RepairLab runner',
      version: RUNNER_VERSION,
      description:
        'Compiles and tests Java patches in a sandbox. Every /v1 route needs `Authorization: Bearer <token>` (printed at start). ' +
        'Browsers may call it only from origins given with --allow-origin. See docs/runner-api.md.',
    },
    servers: [{ url: 'http://127.0.0.1:8765' }],
    security: [{ bearer: [] }],
    paths: {
      '/v1/health': {
        get: {
          summary: 'Liveness, versions and the isolation the sandbox actually obtained',
          responses: { '200': json('Health', 'The runner is up.'), ...common },
        },
      },
      '/v1/snapshots': {
        put: {
          summary: 'Declare a base tree (path → git blob oid); answers which blobs the runner still lacks',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/SnapshotManifest' } } } },
          responses: {
            '200': json('SnapshotStatus', 'What is missing.'),
            '400': error('Invalid manifest (code `bad-request`), e.g. a path listed twice or both `a` and `a/b`.'),
            '413': tooLarge('PUT /v1/snapshots'),
            '507': diskFull,
            ...common,
          },
        },
      },
      '/v1/blobs': {
        post: {
          summary: 'Upload blobs as base64 keyed by git blob oid; each oid is verified against its content; all or nothing',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/BlobUpload' } } } },
          responses: {
            '200': { description: 'Stored.', content: { 'application/json': { schema: { type: 'object', properties: { stored: { type: 'array', items: { type: 'string' } } }, required: ['stored'] } } } },
            '400': error('An oid does not match its content, or the body is malformed; nothing of the batch is stored.'),
            '413': tooLarge('POST /v1/blobs'),
            '507': diskFull,
            ...common,
          },
        },
      },
      '/v1/validate': {
        post: {
          summary: 'Compile base tree + overlay and run the selected tests',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidateRequest' } } } },
          responses: {
            '200': json('ValidationResult', 'The verdict (also when the patch does not compile or tests fail).'),
            '400': error(
              'Invalid request (code `bad-request`), e.g. an overlay path with `..`, or one that conflicts with a file or directory of the snapshot; ' +
                'or an overlay that changes test files beyond what `testEdits` allows (code `test-edit`; `detail.files` lists them).',
            ),
            '404': error('The snapshot is unknown or incomplete (code `unknown-snapshot`): PUT /v1/snapshots and upload its blobs.'),
            '409': error('The runner lacks jars the layout lists (code `missing-jars`; `detail.missingBlobs` holds their oids): POST them to /v1/blobs and send the request again.'),
            '413': tooLarge('POST /v1/validate'),
            '503': error('The sandbox failed (code `sandbox`).'),
            '507': diskFull,
            ...common,
          },
        },
      },
      '/v1/validate-batch': {
        post: {
          summary:
            'Validate many overlays of one snapshot alike (write_fix variants); variants differing only inside method bodies of one file share one compile',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidateBatchRequest' } } } },
          responses: {
            '200': json('ValidateBatchResponse', 'One verdict per overlay, in request order — each equal to what /v1/validate answers for it.'),
            '400': error('Invalid request (code `bad-request`); an overlay conflict names its index (`overlays[i]`). An overlay that changes test files beyond what `testEdits` allows: code `test-edit`.'),
            '404': error('The snapshot is unknown or incomplete (code `unknown-snapshot`).'),
            '409': error('The runner lacks jars the layout lists (code `missing-jars`, `detail.missingBlobs`).'),
            '413': tooLarge('POST /v1/validate-batch'),
            '503': error('The sandbox failed (code `sandbox`).'),
            '507': diskFull,
            ...common,
          },
        },
      },
      '/cors-proxy/{host}/{path}': {
        get: {
          summary: 'Git CORS proxy for isomorphic-git, clone and fetch only: `…/info/refs?service=git-upload-pack`; hosts limited by --git-host; no token',
          security: [],
          parameters: proxyParameters,
          responses: proxyResponses,
        },
        post: {
          summary: 'Git CORS proxy: `…/git-upload-pack` with content type application/x-git-upload-pack-request (pushes are refused)',
          security: [],
          parameters: proxyParameters,
          responses: proxyResponses,
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Health: schema(Health, 'output'),
        SnapshotManifest: schema(SnapshotManifest, 'input'),
        SnapshotStatus: schema(SnapshotStatus, 'output'),
        BlobUpload: schema(BlobUpload, 'input'),
        ValidateRequest: schema(ValidateRequest, 'input'),
        ValidationResult: schema(ValidationResult, 'output'),
        ValidateBatchRequest: schema(ValidateBatchRequest, 'input'),
        ValidateBatchResponse: schema(ValidateBatchResponse, 'output'),
        Error: schema(RunnerErrorBody, 'output'),
      },
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${JSON.stringify(buildOpenApi(), null, 2)}\n`);
}
