// A line diff that makes the same choices as git's xdiff with default options (Myers, not minimal,
// with git's speed heuristics, line-record cleanup and group sliding incl. the indent heuristic).
// `git blame` attributes lines through exactly this diff, so parity with `git blame` needs its
// tie-breaking, not just any shortest edit script. Ported from the algorithm in git's xdiff/
// (xprepare.c, xdiffi.c); names follow git's so the two can be read side by side.

/** A changed region: `oldCount` lines at `oldStart` replaced by `newCount` lines at `newStart` (0-based). */
export interface LineChange {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

export interface XdiffOptions {
  /** git's diff.indentHeuristic (default on since git 2.14; `git blame` honours it). */
  indentHeuristic?: boolean;
}

const XDL_MAX_COST_MIN = 256;
const XDL_HEUR_MIN_COST = 256;
const XDL_SNAKE_CNT = 20;
const XDL_K_HEUR = 4;
const XDL_MAX_EQLIMIT = 1024;
const XDL_SIMSCAN_WINDOW = 100;
const XDL_KPDIS_RUN = 4;
const LINE_MAX = Number.MAX_SAFE_INTEGER;

interface XdFile {
  /** the lines, each with its '\n' if it has one */
  recs: string[];
  /** equivalence class of each line */
  cls: Int32Array;
  nrec: number;
  /** changed flags, index -1..nrec (stored with +1 offset) */
  rchg: Uint8Array;
  /** indexes of the lines that take part in Myers (the others are changed already) */
  rindex: Int32Array;
  ha: Int32Array;
  nreff: number;
  dstart: number;
  dend: number;
}

function bogosqrt(n: number): number {
  let i = 1;
  for (; n > 0; n = Math.floor(n / 4)) i *= 2;
  return i;
}

function prepare(lines1: string[], lines2: string[]): [XdFile, XdFile] {
  const classes = new Map<string, number>();
  const len1: number[] = [];
  const len2: number[] = [];
  const classify = (lines: string[], counts: number[], other: number[]) => {
    const cls = new Int32Array(lines.length);
    lines.forEach((line, i) => {
      let c = classes.get(line);
      if (c === undefined) {
        c = classes.size;
        classes.set(line, c);
        counts[c] = 0;
        other[c] = 0;
      }
      counts[c] = counts[c]! + 1;
      cls[i] = c;
    });
    return cls;
  };
  const cls1 = classify(lines1, len1, len2);
  const cls2 = classify(lines2, len2, len1);
  const make = (recs: string[], cls: Int32Array): XdFile => ({
    recs,
    cls,
    nrec: recs.length,
    rchg: new Uint8Array(recs.length + 2),
    rindex: new Int32Array(recs.length + 1),
    ha: new Int32Array(recs.length + 1),
    nreff: 0,
    dstart: 0,
    dend: 0,
  });
  const f1 = make(lines1, cls1);
  const f2 = make(lines2, cls2);
  trimEnds(f1, f2);
  cleanupRecords(f1, f2, len1, len2);
  return [f1, f2];
}

/** xdl_trim_ends: common prefix and suffix never enter the Myers search. */
function trimEnds(f1: XdFile, f2: XdFile): void {
  const lim = Math.min(f1.nrec, f2.nrec);
  let i = 0;
  while (i < lim && f1.cls[i] === f2.cls[i]) i++;
  f1.dstart = f2.dstart = i;
  const lim2 = lim - i;
  let j = 0;
  while (j < lim2 && f1.cls[f1.nrec - 1 - j] === f2.cls[f2.nrec - 1 - j]) j++;
  f1.dend = f1.nrec - j - 1;
  f2.dend = f2.nrec - j - 1;
}

/** xdl_clean_mmatch: drop a many-matches line that sits inside a run of lines without matches. */
function cleanMmatch(dis: Uint8Array, i: number, s: number, e: number): boolean {
  if (i - s > XDL_SIMSCAN_WINDOW) s = i - XDL_SIMSCAN_WINDOW;
  if (e - i > XDL_SIMSCAN_WINDOW) e = i + XDL_SIMSCAN_WINDOW;
  let rdis0 = 0;
  let rpdis0 = 1;
  for (let r = 1; i - r >= s; r++) {
    const d = dis[i - r];
    if (!d) rdis0++;
    else if (d === 2) rpdis0++;
    else break;
  }
  if (rdis0 === 0) return false;
  let rdis1 = 0;
  let rpdis1 = 1;
  for (let r = 1; i + r <= e; r++) {
    const d = dis[i + r];
    if (!d) rdis1++;
    else if (d === 2) rpdis1++;
    else break;
  }
  if (rdis1 === 0) return false;
  rdis1 += rdis0;
  rpdis1 += rpdis0;
  return rpdis1 * XDL_KPDIS_RUN < rpdis1 + rdis1;
}

/** xdl_cleanup_records: lines with no counterpart are changed outright; the rest feed Myers. */
function cleanupRecords(f1: XdFile, f2: XdFile, len1: number[], len2: number[]): void {
  const mark = (f: XdFile, otherCounts: number[]) => {
    const dis = new Uint8Array(f.nrec + 1);
    const mlim = Math.min(bogosqrt(f.nrec), XDL_MAX_EQLIMIT);
    for (let i = f.dstart; i <= f.dend; i++) {
      const nm = otherCounts[f.cls[i]!] ?? 0;
      dis[i] = nm === 0 ? 0 : nm >= mlim ? 2 : 1;
    }
    return dis;
  };
  const dis1 = mark(f1, len2);
  const dis2 = mark(f2, len1);
  const keep = (f: XdFile, dis: Uint8Array) => {
    let nreff = 0;
    for (let i = f.dstart; i <= f.dend; i++) {
      if (dis[i] === 1 || (dis[i] === 2 && !cleanMmatch(dis, i, f.dstart, f.dend))) {
        f.rindex[nreff] = i;
        f.ha[nreff] = f.cls[i]!;
        nreff++;
      } else {
        f.rchg[i + 1] = 1;
      }
    }
    f.nreff = nreff;
  };
  keep(f1, dis1);
  keep(f2, dis2);
}

interface Split {
  i1: number;
  i2: number;
  minLo: boolean;
  minHi: boolean;
}

interface AlgoEnv {
  mxcost: number;
  snakeCnt: number;
  heurMin: number;
}

/** xdl_split: the middle snake of the box, or a heuristic cut when the cost gets too high. */
function split(
  ha1: Int32Array,
  off1: number,
  lim1: number,
  ha2: Int32Array,
  off2: number,
  lim2: number,
  kvdf: Float64Array,
  kvdb: Float64Array,
  kOff: number,
  needMin: boolean,
  spl: Split,
  env: AlgoEnv,
): void {
  const dmin = off1 - lim2;
  const dmax = lim1 - off2;
  const fmid = off1 - off2;
  const bmid = lim1 - lim2;
  const odd = ((fmid - bmid) & 1) !== 0;
  let fmin = fmid;
  let fmax = fmid;
  let bmin = bmid;
  let bmax = bmid;
  kvdf[kOff + fmid] = off1;
  kvdb[kOff + bmid] = lim1;

  for (let ec = 1; ; ec++) {
    let gotSnake = false;
    if (fmin > dmin) kvdf[kOff + --fmin - 1] = -1;
    else ++fmin;
    if (fmax < dmax) kvdf[kOff + ++fmax + 1] = -1;
    else --fmax;

    for (let d = fmax; d >= fmin; d -= 2) {
      let i1: number;
      if (kvdf[kOff + d - 1]! >= kvdf[kOff + d + 1]!) i1 = kvdf[kOff + d - 1]! + 1;
      else i1 = kvdf[kOff + d + 1]!;
      const prev1 = i1;
      let i2 = i1 - d;
      while (i1 < lim1 && i2 < lim2 && ha1[i1] === ha2[i2]) {
        i1++;
        i2++;
      }
      if (i1 - prev1 > env.snakeCnt) gotSnake = true;
      kvdf[kOff + d] = i1;
      if (odd && bmin <= d && d <= bmax && kvdb[kOff + d]! <= i1) {
        spl.i1 = i1;
        spl.i2 = i2;
        spl.minLo = spl.minHi = true;
        return;
      }
    }

    if (bmin > dmin) kvdb[kOff + --bmin - 1] = LINE_MAX;
    else ++bmin;
    if (bmax < dmax) kvdb[kOff + ++bmax + 1] = LINE_MAX;
    else --bmax;

    for (let d = bmax; d >= bmin; d -= 2) {
      let i1: number;
      if (kvdb[kOff + d - 1]! < kvdb[kOff + d + 1]!) i1 = kvdb[kOff + d - 1]!;
      else i1 = kvdb[kOff + d + 1]! - 1;
      const prev1 = i1;
      let i2 = i1 - d;
      while (i1 > off1 && i2 > off2 && ha1[i1 - 1] === ha2[i2 - 1]) {
        i1--;
        i2--;
      }
      if (prev1 - i1 > env.snakeCnt) gotSnake = true;
      kvdb[kOff + d] = i1;
      if (!odd && fmin <= d && d <= fmax && i1 <= kvdf[kOff + d]!) {
        spl.i1 = i1;
        spl.i2 = i2;
        spl.minLo = spl.minHi = true;
        return;
      }
    }

    if (needMin) continue;

    if (gotSnake && ec > env.heurMin) {
      let best = 0;
      for (let d = fmax; d >= fmin; d -= 2) {
        const dd = d > fmid ? d - fmid : fmid - d;
        const i1 = kvdf[kOff + d]!;
        const i2 = i1 - d;
        const v = i1 - off1 + (i2 - off2) - dd;
        if (v > XDL_K_HEUR * ec && v > best && off1 + env.snakeCnt <= i1 && i1 < lim1 && off2 + env.snakeCnt <= i2 && i2 < lim2) {
          for (let k = 1; ha1[i1 - k] === ha2[i2 - k]; k++) {
            if (k === env.snakeCnt) {
              best = v;
              spl.i1 = i1;
              spl.i2 = i2;
              break;
            }
          }
        }
      }
      if (best > 0) {
        spl.minLo = true;
        spl.minHi = false;
        return;
      }
      best = 0;
      for (let d = bmax; d >= bmin; d -= 2) {
        const dd = d > bmid ? d - bmid : bmid - d;
        const i1 = kvdb[kOff + d]!;
        const i2 = i1 - d;
        const v = lim1 - i1 + (lim2 - i2) - dd;
        if (v > XDL_K_HEUR * ec && v > best && off1 < i1 && i1 <= lim1 - env.snakeCnt && off2 < i2 && i2 <= lim2 - env.snakeCnt) {
          for (let k = 0; ha1[i1 + k] === ha2[i2 + k]; k++) {
            if (k === env.snakeCnt - 1) {
              best = v;
              spl.i1 = i1;
              spl.i2 = i2;
              break;
            }
          }
        }
      }
      if (best > 0) {
        spl.minLo = false;
        spl.minHi = true;
        return;
      }
    }

    if (ec >= env.mxcost) {
      let fbest = -1;
      let fbest1 = -1;
      for (let d = fmax; d >= fmin; d -= 2) {
        let i1 = Math.min(kvdf[kOff + d]!, lim1);
        let i2 = i1 - d;
        if (lim2 < i2) {
          i1 = lim2 + d;
          i2 = lim2;
        }
        if (fbest < i1 + i2) {
          fbest = i1 + i2;
          fbest1 = i1;
        }
      }
      let bbest = LINE_MAX;
      let bbest1 = LINE_MAX;
      for (let d = bmax; d >= bmin; d -= 2) {
        let i1 = Math.max(off1, kvdb[kOff + d]!);
        let i2 = i1 - d;
        if (i2 < off2) {
          i1 = off2 + d;
          i2 = off2;
        }
        if (i1 + i2 < bbest) {
          bbest = i1 + i2;
          bbest1 = i1;
        }
      }
      if (lim1 + lim2 - bbest < fbest - (off1 + off2)) {
        spl.i1 = fbest1;
        spl.i2 = fbest - fbest1;
        spl.minLo = true;
        spl.minHi = false;
      } else {
        spl.i1 = bbest1;
        spl.i2 = bbest - bbest1;
        spl.minLo = false;
        spl.minHi = true;
      }
      return;
    }
  }
}

/** xdl_recs_cmp: divide and conquer over the reduced records, marking changed lines in rchg. */
function recsCmp(
  f1: XdFile,
  off1: number,
  lim1: number,
  f2: XdFile,
  off2: number,
  lim2: number,
  kvdf: Float64Array,
  kvdb: Float64Array,
  kOff: number,
  needMin: boolean,
  env: AlgoEnv,
): void {
  // An explicit stack instead of recursion: long files must not overflow the JS stack.
  const stack: [number, number, number, number, boolean][] = [[off1, lim1, off2, lim2, needMin]];
  const ha1 = f1.ha;
  const ha2 = f2.ha;
  const spl: Split = { i1: 0, i2: 0, minLo: false, minHi: false };
  while (stack.length) {
    const frame = stack.pop()!;
    const nm = frame[4];
    let [o1, l1, o2, l2] = frame;
    while (o1 < l1 && o2 < l2 && ha1[o1] === ha2[o2]) {
      o1++;
      o2++;
    }
    while (o1 < l1 && o2 < l2 && ha1[l1 - 1] === ha2[l2 - 1]) {
      l1--;
      l2--;
    }
    if (o1 === l1) {
      for (; o2 < l2; o2++) f2.rchg[f2.rindex[o2]! + 1] = 1;
    } else if (o2 === l2) {
      for (; o1 < l1; o1++) f1.rchg[f1.rindex[o1]! + 1] = 1;
    } else {
      spl.i1 = spl.i2 = 0;
      split(ha1, o1, l1, ha2, o2, l2, kvdf, kvdb, kOff, nm, spl, env);
      const { i1, i2, minLo, minHi } = spl;
      // The low half is processed first in git; order does not change the result (disjoint boxes).
      stack.push([i1, l1, i2, l2, minHi]);
      stack.push([o1, i1, o2, i2, minLo]);
    }
  }
}

// ---- group sliding (xdl_change_compact) ----

const MAX_INDENT = 200;
const MAX_BLANKS = 20;
const START_OF_FILE_PENALTY = 1;
const END_OF_FILE_PENALTY = 21;
const TOTAL_BLANK_WEIGHT = -30;
const POST_BLANK_WEIGHT = 6;
const RELATIVE_INDENT_PENALTY = -4;
const RELATIVE_INDENT_WITH_BLANK_PENALTY = 10;
const RELATIVE_OUTDENT_PENALTY = 24;
const RELATIVE_OUTDENT_WITH_BLANK_PENALTY = 17;
const RELATIVE_DEDENT_PENALTY = 23;
const RELATIVE_DEDENT_WITH_BLANK_PENALTY = 17;
const INDENT_WEIGHT = 60;
const INDENT_HEURISTIC_MAX_SLIDING = 100;

function getIndent(rec: string): number {
  let ret = 0;
  for (let i = 0; i < rec.length; i++) {
    const c = rec.charCodeAt(i);
    // XDL_ISSPACE: space, \t, \n, \v, \f, \r
    if (!(c === 32 || (c >= 9 && c <= 13))) return ret;
    if (c === 32) ret += 1;
    else if (c === 9) ret += 8 - (ret % 8);
    if (ret >= MAX_INDENT) return MAX_INDENT;
  }
  return -1;
}

interface SplitMeasurement {
  endOfFile: boolean;
  indent: number;
  preBlank: number;
  preIndent: number;
  postBlank: number;
  postIndent: number;
}

function measureSplit(f: XdFile, split: number): SplitMeasurement {
  const m: SplitMeasurement = { endOfFile: false, indent: -1, preBlank: 0, preIndent: -1, postBlank: 0, postIndent: -1 };
  if (split >= f.nrec) {
    m.endOfFile = true;
    m.indent = -1;
  } else {
    m.indent = getIndent(f.recs[split]!);
  }
  for (let i = split - 1; i >= 0; i--) {
    m.preIndent = getIndent(f.recs[i]!);
    if (m.preIndent !== -1) break;
    m.preBlank += 1;
    if (m.preBlank === MAX_BLANKS) {
      m.preIndent = 0;
      break;
    }
  }
  for (let i = split + 1; i < f.nrec; i++) {
    m.postIndent = getIndent(f.recs[i]!);
    if (m.postIndent !== -1) break;
    m.postBlank += 1;
    if (m.postBlank === MAX_BLANKS) {
      m.postIndent = 0;
      break;
    }
  }
  return m;
}

interface SplitScore {
  effectiveIndent: number;
  penalty: number;
}

function scoreAddSplit(m: SplitMeasurement, s: SplitScore): void {
  if (m.preIndent === -1 && m.preBlank === 0) s.penalty += START_OF_FILE_PENALTY;
  if (m.endOfFile) s.penalty += END_OF_FILE_PENALTY;
  const postBlank = m.indent === -1 ? 1 + m.postBlank : 0;
  const totalBlank = m.preBlank + postBlank;
  s.penalty += TOTAL_BLANK_WEIGHT * totalBlank;
  s.penalty += POST_BLANK_WEIGHT * postBlank;
  const indent = m.indent !== -1 ? m.indent : m.postIndent;
  const anyBlanks = totalBlank !== 0;
  s.effectiveIndent += indent;
  if (indent === -1 || m.preIndent === -1) {
    /* no adjustment */
  } else if (indent > m.preIndent) {
    s.penalty += anyBlanks ? RELATIVE_INDENT_WITH_BLANK_PENALTY : RELATIVE_INDENT_PENALTY;
  } else if (indent === m.preIndent) {
    /* no adjustment */
  } else if (m.postIndent !== -1 && m.postIndent > indent) {
    s.penalty += anyBlanks ? RELATIVE_OUTDENT_WITH_BLANK_PENALTY : RELATIVE_OUTDENT_PENALTY;
  } else {
    s.penalty += anyBlanks ? RELATIVE_DEDENT_WITH_BLANK_PENALTY : RELATIVE_DEDENT_PENALTY;
  }
}

function scoreCmp(s1: SplitScore, s2: SplitScore): number {
  const cmpIndents = (s1.effectiveIndent > s2.effectiveIndent ? 1 : 0) - (s1.effectiveIndent < s2.effectiveIndent ? 1 : 0);
  return INDENT_WEIGHT * cmpIndents + (s1.penalty - s2.penalty);
}

interface Group {
  start: number;
  end: number;
}

// rchg is stored with a +1 offset so that rchg[-1] and rchg[nrec] exist (both 0).
const changed = (f: XdFile, i: number) => f.rchg[i + 1] === 1;

function groupInit(f: XdFile): Group {
  const g = { start: 0, end: 0 };
  while (changed(f, g.end)) g.end++;
  return g;
}

function groupNext(f: XdFile, g: Group): boolean {
  if (g.end === f.nrec) return false;
  g.start = g.end + 1;
  for (g.end = g.start; changed(f, g.end); g.end++);
  return true;
}

function groupPrevious(f: XdFile, g: Group): boolean {
  if (g.start === 0) return false;
  g.end = g.start - 1;
  for (g.start = g.end; changed(f, g.start - 1); g.start--);
  return true;
}

function groupSlideDown(f: XdFile, g: Group): boolean {
  if (g.end < f.nrec && f.cls[g.start] === f.cls[g.end]) {
    f.rchg[g.start++ + 1] = 0;
    f.rchg[g.end++ + 1] = 1;
    while (changed(f, g.end)) g.end++;
    return true;
  }
  return false;
}

function groupSlideUp(f: XdFile, g: Group): boolean {
  if (g.start > 0 && f.cls[g.start - 1] === f.cls[g.end - 1]) {
    f.rchg[--g.start + 1] = 1;
    f.rchg[--g.end + 1] = 0;
    while (changed(f, g.start - 1)) g.start--;
    return true;
  }
  return false;
}

function fail(what: string): never {
  throw new Error(`xdiff: ${what} (internal error)`);
}

function changeCompact(f: XdFile, fo: XdFile, indentHeuristic: boolean): void {
  const g = groupInit(f);
  const go = groupInit(fo);
  for (;;) {
    if (g.end !== g.start) {
      let groupsize: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      do {
        groupsize = g.end - g.start;
        endMatchingOther = -1;
        while (groupSlideUp(f, g)) if (!groupPrevious(fo, go)) fail('group sync broken sliding up');
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        for (;;) {
          if (!groupSlideDown(f, g)) break;
          if (!groupNext(fo, go)) fail('group sync broken sliding down');
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (groupsize !== g.end - g.start);

      if (g.end === earliestEnd) {
        /* no shifting was possible */
      } else if (endMatchingOther !== -1) {
        while (go.end === go.start) {
          if (!groupSlideUp(f, g)) fail('match disappeared');
          if (!groupPrevious(fo, go)) fail('group sync broken sliding to match');
        }
      } else if (indentHeuristic) {
        let shift = earliestEnd;
        if (g.end - groupsize - 1 > shift) shift = g.end - groupsize - 1;
        if (g.end - INDENT_HEURISTIC_MAX_SLIDING > shift) shift = g.end - INDENT_HEURISTIC_MAX_SLIDING;
        let bestShift = -1;
        let bestScore: SplitScore = { effectiveIndent: 0, penalty: 0 };
        for (; shift <= g.end; shift++) {
          const score: SplitScore = { effectiveIndent: 0, penalty: 0 };
          scoreAddSplit(measureSplit(f, shift), score);
          scoreAddSplit(measureSplit(f, shift - groupsize), score);
          if (bestShift === -1 || scoreCmp(score, bestScore) <= 0) {
            bestScore = score;
            bestShift = shift;
          }
        }
        while (g.end > bestShift) {
          if (!groupSlideUp(f, g)) fail('best shift unreached');
          if (!groupPrevious(fo, go)) fail('group sync broken sliding to blank line');
        }
      }
    }
    if (!groupNext(f, g)) break;
    if (!groupNext(fo, go)) fail('group sync broken moving to next group');
  }
}

/** Runs the diff and returns both files' changed-line flags (index i → line i). */
export function xdiffFlags(lines1: string[], lines2: string[], options: XdiffOptions = {}): { changed1: Uint8Array; changed2: Uint8Array } {
  const [f1, f2] = prepare(lines1, lines2);
  const ndiags = f1.nreff + f2.nreff + 3;
  const kvdf = new Float64Array(ndiags);
  const kvdb = new Float64Array(ndiags);
  const kOff = f2.nreff + 1;
  const env: AlgoEnv = { mxcost: Math.max(bogosqrt(ndiags), XDL_MAX_COST_MIN), snakeCnt: XDL_SNAKE_CNT, heurMin: XDL_HEUR_MIN_COST };
  recsCmp(f1, 0, f1.nreff, f2, 0, f2.nreff, kvdf, kvdb, kOff, false, env);
  const indent = options.indentHeuristic ?? true;
  changeCompact(f1, f2, indent);
  changeCompact(f2, f1, indent);
  return { changed1: f1.rchg.subarray(1, f1.nrec + 1), changed2: f2.rchg.subarray(1, f2.nrec + 1) };
}

/** git's change list (xdl_build_script), as 0-based line ranges. */
export function xdiffChanges(lines1: string[], lines2: string[], options: XdiffOptions = {}): LineChange[] {
  const { changed1, changed2 } = xdiffFlags(lines1, lines2, options);
  const out: LineChange[] = [];
  let i1 = 0;
  let i2 = 0;
  while (i1 < lines1.length || i2 < lines2.length) {
    if (changed1[i1] || changed2[i2]) {
      const s1 = i1;
      const s2 = i2;
      while (i1 < lines1.length && changed1[i1]) i1++;
      while (i2 < lines2.length && changed2[i2]) i2++;
      out.push({ oldStart: s1, oldCount: i1 - s1, newStart: s2, newCount: i2 - s2 });
    } else {
      i1++;
      i2++;
    }
  }
  return out;
}

/** For each line of `lines2`, the index of the unchanged line of `lines1` it corresponds to, or -1. */
export function xdiffLineMap(lines1: string[], lines2: string[], options: XdiffOptions = {}): Int32Array {
  const { changed1, changed2 } = xdiffFlags(lines1, lines2, options);
  const map = new Int32Array(lines2.length).fill(-1);
  let i1 = 0;
  let i2 = 0;
  while (i1 < lines1.length || i2 < lines2.length) {
    if (changed1[i1] || changed2[i2]) {
      while (i1 < lines1.length && changed1[i1]) i1++;
      while (i2 < lines2.length && changed2[i2]) i2++;
    } else {
      if (i2 < lines2.length) map[i2] = i1;
      i1++;
      i2++;
    }
  }
  return map;
}
