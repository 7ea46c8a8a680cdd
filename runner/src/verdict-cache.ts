// The runner's verdict cache with deduplication: candidates whose overlays are equal after normalisation (comments and
// layout: java-normal-form.ts) share one verdict. It lives in the runner because every validation of a bug meets
// there — one run's repeated candidates, the samples of a cell and every cell of an experiment — and the runner alone
// knows what else decides a verdict (its sandbox, JDK and harness). The key is the bug's tree, the layout (the
// environment a verdict is had in: class path, JDK release, locale, time zone, excluded tests), the tests asked, the
// limits, the path and the normal form of the overlay. Only verdicts of clean runs are kept (validation.ts remember).
import { createHash } from 'node:crypto';
import type { Diagnostic, ValidationResult } from '../../worker/contracts/runner-api.ts';
import { javaNormalForm, remapLine, type NormalForm } from './java-normal-form.ts';

export type Overlay = Record<string, string | null>;

/** What a cache key is made of besides the overlay. */
export interface VerdictKeyParts {
  treeId: string;
  layout: unknown;
  tests: unknown;
  limits: unknown;
  coverage: boolean;
  path: 'warm' | 'cold';
}

export interface VerdictKey {
  /** the key shared by candidates equal after normalisation */
  key: string;
  /** this overlay's own text, hashed: a hit with another text has its line numbers mapped */
  exact: string;
  /** normal forms of the overlay's Java files (those that have one) */
  forms: Record<string, NormalForm>;
}

interface Entry {
  result: ValidationResult;
  exact: string;
  forms: Record<string, NormalForm>;
}

export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * A validation's cache key. With coverage the overlay is compared as it is: coverage reports source lines, which a
 * candidate laid out differently does not share.
 */
export function verdictKey(parts: VerdictKeyParts, overlay: Overlay): VerdictKey {
  const forms: Record<string, NormalForm> = {};
  const normal: Record<string, string | null> = {};
  for (const [p, content] of Object.entries(overlay)) {
    const form = content !== null && !parts.coverage && p.endsWith('.java') ? javaNormalForm(content) : undefined;
    if (form) {
      forms[p] = form;
      normal[p] = `normal-form:${sha256(form.text)}`;
    } else normal[p] = content === null ? null : `text:${sha256(content)}`;
  }
  return {
    key: sha256(stableJson({ ...parts, overlay: normal })),
    exact: sha256(stableJson(overlay)),
    forms,
  };
}

/** Least-recently-used verdicts under their deduplicating keys. */
export class VerdictCache {
  private map = new Map<string, Entry>();
  constructor(private readonly capacity: number) {}

  /** The verdict of an equal candidate, its line numbers those of this candidate's files; undefined when none. */
  get(k: VerdictKey): ValidationResult | undefined {
    const e = this.map.get(k.key);
    if (!e) return undefined;
    this.map.delete(k.key);
    this.map.set(k.key, e);
    // (undefined when a line it names is split over several in this candidate: then it is validated itself)
    return e.exact === k.exact ? e.result : remapped(e.result, e.forms, k.forms);
  }

  set(k: VerdictKey, result: ValidationResult): void {
    this.map.set(k.key, { result, exact: k.exact, forms: k.forms });
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
  }
}

/** `at pkg.Outer$Inner.method(File.java:12)`: the class, the file and the line of a failure frame. */
const FRAME = /^(\s*at\s+)([\w$.]+)\.([\w$<>]+)\(([\w$]+\.java):(\d+)\)(.*)$/;

/**
 * A verdict had for one candidate as another with the same normal forms reads it: diagnostics and failure frames in
 * the overlay's files point at this candidate's lines (a column, which layout moves within the line, is left out).
 * Undefined when a line it names cannot be placed exactly (remapLine).
 */
export function remapped(result: ValidationResult, from: Record<string, NormalForm>, to: Record<string, NormalForm>): ValidationResult | undefined {
  let exact = true;
  const mapLine = (file: string, line: number): number => {
    const a = from[file];
    const b = to[file];
    const mapped = a && b ? remapLine(line, a, b) : line;
    if (mapped === undefined) exact = false;
    return mapped ?? line;
  };
  const diagnostics: Diagnostic[] = result.diagnostics.map((d) => {
    if (!(d.file in to)) return d;
    const { column: _column, ...rest } = d;
    return { ...rest, line: mapLine(d.file, d.line) };
  });
  const files = Object.keys(to);
  const tests = result.tests.map((t) => {
    if (!t.failure) return t;
    const frames = t.failure.frames.map((f) => {
      const m = FRAME.exec(f);
      if (!m) return f;
      const cls = m[2]!;
      const pkg = cls.includes('.') ? cls.slice(0, cls.lastIndexOf('.')).replaceAll('.', '/') : '';
      const suffix = pkg ? `/${pkg}/${m[4]}` : `/${m[4]}`;
      const file = files.find((p) => `/${p}`.endsWith(suffix));
      return file ? `${m[1]}${cls}.${m[3]}(${m[4]}:${mapLine(file, Number(m[5]))})${m[6]}` : f;
    });
    return { ...t, failure: { ...t.failure, frames } };
  });
  return exact ? { ...result, diagnostics, tests } : undefined;
}
