// Client of the runner HTTP API (docs/runner-api.md), used by the engine in a browser worker and by the CLI in Node.
// Global fetch only; no node: imports.
import type { ProjectJar, ProjectLayout } from '../contracts/bug.ts';
import {
  Health,
  SnapshotStatus,
  ValidationResult,
  type Limits,
  type SnapshotManifest,
  type TestSelection,
  ValidateBatchResponse,
  type ValidateBatchRequest,
  type ValidateRequest,
} from '../contracts/runner-api.ts';
import type { TestEdits } from '../contracts/test-edits.ts';
import type { Validator, ValidatorOptions } from '../contracts/tools.ts';
import type { Workspace } from '../contracts/workspace.ts';
import { bytesToBase64 } from './base64.ts';
import { defaultSurface, errorFromResponse, RunnerError, unreachable, type RunnerAdviceSurface } from './runner-errors.ts';
import { readServedToken } from './served-token.ts';

export { RunnerError } from './runner-errors.ts';
export type { RunnerAdviceSurface, RunnerErrorCode } from './runner-errors.ts';

export interface RunnerClientOptions {
  url: string;
  token: string;
  /**
   * Where the runner's current token is served (the page's /runtime-config.json: RunnerSettings.tokenSource): after
   * a 401 the client reads it again and, when it serves another token for this runner URL, goes on with that one.
   */
  tokenSource?: string;
  fetch?: typeof fetch;
  /** retries for network errors and 5xx answers (default 3) */
  retries?: number;
  /** first backoff delay in ms, doubled per retry (default 250) */
  backoffMs?: number;
  /** client-side timeout per request in ms (default: the validation wall clock + 30 s, 120 s otherwise) */
  timeoutMs?: number;
  /** whose advice error messages give: the app's settings or the CLI's flags (default: by the environment) */
  surface?: RunnerAdviceSurface;
  /**
   * The bytes of a layout's jar (ProjectLayout.jars) the runner lacks, by oid; default: the workspace's base blob
   * of that oid (jars stored in the repository's object store).
   */
  readJar?: (jar: ProjectJar, workspace: Workspace) => Promise<Uint8Array>;
}

export interface ValidateOptions {
  coverage?: boolean;
  path?: 'auto' | 'warm' | 'cold';
  limits?: Partial<Limits>;
  signal?: AbortSignal;
  /** what the overlay may do to test files (the runner's default: none); 'any' only for a person's own patch */
  testEdits?: TestEdits;
}

/** Blob upload batches stay well under the runner's body limit. */
const UPLOAD_BATCH_BYTES = 8 * 1024 * 1024;
/** overlays per /v1/validate-batch request (the API's maximum) */
const MAX_BATCH = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An error answer of the runner, with its body's code and message as sent. */
type AnsweredError = RunnerError & { serverCode?: string; serverError?: string };

export class RunnerClient {
  readonly url: string;
  /** the token sent; replaced when the runner refuses it and tokenSource serves a new one */
  private token: string;
  private readonly tokenSource: string | undefined;
  /** a re-read of tokenSource under way: concurrent 401s wait for the same one */
  private rereading: Promise<boolean> | undefined;
  private readonly fetchFn: typeof fetch;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly timeoutMs: number | undefined;
  private readonly surface: RunnerAdviceSurface;
  private readonly readJar: (jar: ProjectJar, workspace: Workspace) => Promise<Uint8Array>;
  /** tree ids known to be complete on the runner (saves a round trip per validation) */
  private readonly knownSnapshots = new Set<string>();
  private readonly pendingSnapshots = new Map<string, Promise<void>>();
  /** set once the runner answered that it has no batch endpoint */
  private batchUnsupported = false;

  constructor(opts: RunnerClientOptions) {
    this.url = opts.url.replace(/\/+$/, '');
    this.token = opts.token;
    this.tokenSource = opts.tokenSource;
    this.fetchFn = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.retries = opts.retries ?? 3;
    this.backoffMs = opts.backoffMs ?? 250;
    this.timeoutMs = opts.timeoutMs;
    this.surface = opts.surface ?? defaultSurface();
    this.readJar = opts.readJar ?? ((jar, workspace) => workspace.readBaseBlob(jar.oid));
  }

  /**
   * One API call. A 401 is answered by reading the token again (tokenSource) and sending once more with the new one:
   * a runner restarted with a new token goes on serving this client, and only a token that nothing fixes is an error.
   */
  private async request(method: string, path: string, body: unknown, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<unknown> {
    const sentWith = this.token;
    try {
      return await this.send(method, path, body, opts);
    } catch (e) {
      if (!(e instanceof RunnerError) || e.code !== 'unauthorized') throw e;
      // another request may have found the new token meanwhile; else the page's server may serve one
      if (this.token !== sentWith || (await this.rereadToken())) return this.send(method, path, body, opts);
      // the advice says the served token was read again and did not help
      if (this.tokenSource) throw errorFromResponse(this.url, 401, { error: (e as AnsweredError).serverError }, this.surface, this.tokenSource);
      throw e;
    }
  }

  /** Reads tokenSource again; true when it served a token for this runner other than the one sent. */
  private rereadToken(): Promise<boolean> {
    const source = this.tokenSource;
    if (!source) return Promise.resolve(false);
    this.rereading ??= (async () => {
      const before = this.token;
      const served = await readServedToken(source, this.url, this.fetchFn);
      if (served !== undefined) this.token = served;
      return this.token !== before;
    })().finally(() => {
      this.rereading = undefined;
    });
    return this.rereading;
  }

  private async send(method: string, path: string, body: unknown, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<unknown> {
    let lastError: RunnerError | undefined;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (attempt > 0) await sleep(this.backoffMs * 2 ** (attempt - 1));
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      let res: Response;
      try {
        res = await this.fetchFn(`${this.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal,
        });
      } catch (e) {
        if (opts.signal?.aborted) throw opts.signal.reason instanceof Error ? opts.signal.reason : new RunnerError('timeout', 'The request to the runner was cancelled.');
        if (timeout.aborted) {
          throw new RunnerError('timeout', `The runner at ${this.url} did not finish ${method} ${path} within ${opts.timeoutMs} ms. Raise the limit or check the runner's console.`);
        }
        lastError = unreachable(this.url, e, this.surface);
        continue; // network errors are retried
      }
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      if (res.ok) {
        if (parsed === undefined) throw new RunnerError('server', `The runner at ${this.url} answered ${method} ${path} with something that is not JSON.`);
        return parsed;
      }
      const err = errorFromResponse(this.url, res.status, parsed as { error?: string; code?: string }, this.surface);
      if (res.status >= 500 && err.code === 'server') {
        lastError = err;
        continue; // transient server trouble is retried
      }
      (err as AnsweredError).serverCode = (parsed as { code?: string } | undefined)?.code;
      (err as AnsweredError).serverError = (parsed as { error?: string } | undefined)?.error;
      throw err;
    }
    throw lastError ?? new RunnerError('unreachable', `The runner at ${this.url} did not answer.`);
  }

  async health(): Promise<Health> {
    return Health.parse(await this.request('GET', '/v1/health', undefined, { timeoutMs: this.timeoutMs ?? 15_000 }));
  }

  /** Makes the workspace's base tree available on the runner, uploading only the blobs it lacks. */
  async ensureSnapshot(workspace: Workspace): Promise<void> {
    const treeId = workspace.treeId;
    if (this.knownSnapshots.has(treeId)) return;
    let pending = this.pendingSnapshots.get(treeId);
    if (!pending) {
      pending = this.uploadSnapshot(workspace).finally(() => this.pendingSnapshots.delete(treeId));
      this.pendingSnapshots.set(treeId, pending);
    }
    await pending;
  }

  private async uploadSnapshot(workspace: Workspace): Promise<void> {
    const manifest: SnapshotManifest = { treeId: workspace.treeId, files: (await workspace.baseFiles()).map((f) => ({ path: f.path, oid: f.oid })) };
    const timeoutMs = this.timeoutMs ?? 120_000;
    let status = SnapshotStatus.parse(await this.request('PUT', '/v1/snapshots', manifest, { timeoutMs }));
    if (!status.complete) {
      await this.uploadBlobs(status.missingBlobs, (oid) => workspace.readBaseBlob(oid), timeoutMs);
      status = SnapshotStatus.parse(await this.request('PUT', '/v1/snapshots', manifest, { timeoutMs }));
      if (!status.complete) {
        throw new RunnerError('server', `The runner at ${this.url} still lacks ${status.missingBlobs.length} blobs of tree ${workspace.treeId} after the upload.`);
      }
    }
    this.knownSnapshots.add(workspace.treeId);
  }

  /** Uploads blobs in batches that stay under the runner's body limit. */
  private async uploadBlobs(oids: string[], read: (oid: string) => Promise<Uint8Array>, timeoutMs: number): Promise<void> {
    let batch: Record<string, string> = {};
    let batchBytes = 0;
    const flush = async () => {
      if (batchBytes === 0 && Object.keys(batch).length === 0) return;
      await this.request('POST', '/v1/blobs', { blobs: batch }, { timeoutMs });
      batch = {};
      batchBytes = 0;
    };
    for (const oid of oids) {
      const bytes = await read(oid);
      batch[oid] = bytesToBase64(bytes);
      batchBytes += bytes.byteLength;
      if (batchBytes >= UPLOAD_BATCH_BYTES) await flush();
    }
    await flush();
  }

  /**
   * After the runner answered 409 missing-jars: uploads the jars it named (only those travel; the runner keeps them
   * by oid for every later validation).
   */
  private async uploadMissingJars(error: RunnerError, workspace: Workspace, layout: ProjectLayout): Promise<void> {
    const missing = (error.detail as { missingBlobs?: unknown } | undefined)?.missingBlobs;
    const oids = Array.isArray(missing) ? missing.filter((o): o is string => typeof o === 'string') : [];
    const byOid = new Map((layout.jars ?? []).map((j) => [j.oid, j]));
    const read = async (oid: string) => {
      const jar = byOid.get(oid);
      if (!jar) throw new RunnerError('bad-request', `The runner asked for jar ${oid}, which the layout does not list.`);
      try {
        return await this.readJar(jar, workspace);
      } catch (e) {
        throw new RunnerError('bad-request', `Jar ${jar.name} (${oid}) of the layout could not be read for upload: ${(e as Error).message}. Store it where the client's readJar finds it.`);
      }
    };
    await this.uploadBlobs(oids, read, this.timeoutMs ?? 120_000);
  }

  /** Sends a validation; a snapshot or jars the runner lacks are uploaded and the request sent again, once. */
  private async sendUploading<T>(send: () => Promise<T>, workspace: Workspace, layout: ProjectLayout): Promise<T> {
    try {
      return await send();
    } catch (e) {
      const code = e instanceof RunnerError ? (e as RunnerError & { serverCode?: string }).serverCode : undefined;
      // the runner may have been restarted with an empty store: upload again, once
      if (code === 'unknown-snapshot') {
        this.knownSnapshots.delete(workspace.treeId);
        await this.ensureSnapshot(workspace);
        return this.sendUploading(send, workspace, { ...layout, jars: [] }).catch(async (again: unknown) => {
          if ((again as { serverCode?: string }).serverCode !== 'missing-jars') throw again;
          await this.uploadMissingJars(again as RunnerError, workspace, layout);
          return send();
        });
      }
      if (code === 'missing-jars') {
        await this.uploadMissingJars(e as RunnerError, workspace, layout);
        return send();
      }
      throw e;
    }
  }

  /** Validates the workspace's overlay on its base tree. */
  async validate(workspace: Workspace, layout: ProjectLayout, tests: TestSelection, opts: ValidateOptions = {}): Promise<ValidationResult> {
    await this.ensureSnapshot(workspace);
    const body: ValidateRequest = {
      treeId: workspace.treeId,
      overlay: workspace.overlay(),
      layout,
      tests,
      path: opts.path ?? 'auto',
      coverage: opts.coverage ?? false,
    };
    if (opts.limits) body.limits = opts.limits;
    if (opts.testEdits) body.testEdits = opts.testEdits;
    const timeoutMs = this.timeoutMs ?? (opts.limits?.wallClockMs ?? 120_000) + 30_000 + 180_000; // + a first warm start
    const send = () => this.request('POST', '/v1/validate', body, { timeoutMs, signal: opts.signal });
    return ValidationResult.parse(await this.sendUploading(send, workspace, layout));
  }
  /**
   * Validates several workspaces of one base tree alike (write_fix's variants) in one request: the runner compiles
   * variants that differ only inside method bodies together. Results come in the workspaces' order, each equal to
   * what validate() answers for that workspace. A runner without the batch endpoint gets one request per workspace.
   */
  async validateBatch(workspaces: Workspace[], layout: ProjectLayout, tests: TestSelection, opts: ValidateOptions = {}): Promise<ValidationResult[]> {
    if (workspaces.length === 0) return [];
    const treeId = workspaces[0]!.treeId;
    const mixed = workspaces.find((w) => w.treeId !== treeId);
    if (mixed) throw new RunnerError('bad-request', `validateBatch takes workspaces of one base tree: ${treeId} and ${mixed.treeId} differ; validate them separately.`);
    const results: ValidationResult[] = [];
    for (let from = 0; from < workspaces.length; from += MAX_BATCH) {
      results.push(...(await this.validateChunk(workspaces.slice(from, from + MAX_BATCH), layout, tests, opts)));
    }
    return results;
  }

  private async validateChunk(workspaces: Workspace[], layout: ProjectLayout, tests: TestSelection, opts: ValidateOptions): Promise<ValidationResult[]> {
    if (this.batchUnsupported) return Promise.all(workspaces.map((w) => this.validate(w, layout, tests, opts)));
    await this.ensureSnapshot(workspaces[0]!);
    const body: ValidateBatchRequest = {
      treeId: workspaces[0]!.treeId,
      overlays: workspaces.map((w) => w.overlay()),
      layout,
      tests,
      path: opts.path ?? 'auto',
      coverage: opts.coverage ?? false,
    };
    if (opts.limits) body.limits = opts.limits;
    if (opts.testEdits) body.testEdits = opts.testEdits;
    const wallClockMs = opts.limits?.wallClockMs ?? 120_000;
    const timeoutMs = this.timeoutMs ?? wallClockMs * workspaces.length + 30_000 + 180_000;
    const send = () => this.request('POST', '/v1/validate-batch', body, { timeoutMs, signal: opts.signal });
    try {
      const answer = ValidateBatchResponse.parse(await this.sendUploading(send, workspaces[0]!, layout));
      if (answer.results.length !== workspaces.length) {
        throw new RunnerError('server', `The runner at ${this.url} answered ${answer.results.length} results for ${workspaces.length} variants.`);
      }
      return answer.results;
    } catch (e) {
      const code = (e as RunnerError & { serverCode?: string }).serverCode;
      // an older runner without the batch endpoint: one request per variant from now on
      if (e instanceof RunnerError && code === 'not-found') {
        this.batchUnsupported = true;
        return Promise.all(workspaces.map((w) => this.validate(w, layout, tests, opts)));
      }
      throw e;
    }
  }
}

/** The runner behind the tools' Validator interface, for one project layout. */
export function runnerValidator(client: RunnerClient, layout: ProjectLayout, defaults: Omit<ValidateOptions, 'coverage'> = {}): Validator {
  const options = (opts: ValidatorOptions | undefined): ValidateOptions => ({
    ...defaults,
    coverage: opts?.coverage ?? false,
    ...(opts?.signal ? { signal: opts.signal } : {}),
    ...(opts?.testEdits ? { testEdits: opts.testEdits } : {}),
  });
  // each verdict names the runner that gave it: in a pool a run's validations may come from more than one
  const served = (r: ValidationResult): ValidationResult => ({ ...r, runner: client.url });
  return {
    validate: async (workspace, tests, opts) => served(await client.validate(workspace, layout, tests, options(opts))),
    validateMany: async (workspaces, tests, opts) => (await client.validateBatch(workspaces, layout, tests, options(opts))).map(served),
  };
}
