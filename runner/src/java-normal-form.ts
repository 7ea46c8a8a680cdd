// A Java source in a normal form for deduplicating candidates: comments gone and whitespace reduced to what separates
// tokens, so candidates that differ only in layout and comments share one verdict (validation.ts). Two sources with the
// same normal form are read by javac as the same token sequence, hence the same syntax tree: the normal form never
// merges sources that compile differently. Where a difference might matter it is kept (a space between `a - -b` and
// `a--b`, anything inside a literal), so some equivalent sources stay apart — never the other way round.

/** Characters that are always a token of their own outside literals: whitespace beside them separates nothing. */
const STANDALONE = new Set(['(', ')', '{', '}', '[', ']', ';', ',']);

export interface NormalForm {
  /** the source without comments and with only the whitespace that separates tokens (one space each) */
  text: string;
  /**
   * firstOffset[L] (L = 1-based source line): the offset in `text` of the first character that came from line L or a
   * later one — how a line of one source is found in another with the same normal form (remapLine)
   */
  firstOffset: number[];
}

/**
 * The normal form of a Java source, or undefined when it holds a Unicode escape (`\u…`): javac translates those
 * before it tokenizes (`// \u000a code` is code), which this reading does not follow — such a source is compared
 * as it is.
 */
export function javaNormalForm(source: string): NormalForm | undefined {
  if (/\\u/.test(source)) return undefined;
  let text = '';
  const firstOffset: number[] = [0];
  let line = 1;
  /** lines begun since the last kept character: they start where the next one goes */
  let pending: number[] = [1];
  /** whitespace or a comment since the last kept character */
  let gap = false;
  const isNewline = (k: number) => source[k] === '\n' || (source[k] === '\r' && source[k + 1] !== '\n');
  const keep = (from: number, to: number) => {
    if (gap && text.length > 0 && !STANDALONE.has(text[text.length - 1]!) && !STANDALONE.has(source[from]!)) text += ' ';
    gap = false;
    for (const l of pending) firstOffset[l] = text.length;
    pending = [];
    // a literal may span lines (text blocks): those lines start inside it
    for (let k = from; k < to; k++) {
      if (isNewline(k)) firstOffset[++line] = text.length + (k - from) + 1;
    }
    text += source.slice(from, to);
  };
  const n = source.length;
  for (let i = 0; i < n; ) {
    const c = source[i]!;
    if (isNewline(i)) {
      gap = true;
      pending.push(++line);
      i++;
    } else if (c === ' ' || c === '\t' || c === '\f' || c === '\r') {
      gap = true;
      i++;
    } else if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n' && source[i] !== '\r') i++;
      gap = true;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let k = i; k < stop; k++) if (isNewline(k)) pending.push(++line);
      i = stop;
      gap = true;
    } else if (c === '"' || c === "'") {
      const close = c === '"' && source.startsWith('"""', i) ? '"""' : c;
      let k = i + close.length;
      while (k < n && !source.startsWith(close, k)) {
        if (source[k] === '\\') k++;
        else if (close.length === 1 && (source[k] === '\n' || source[k] === '\r')) break; // unterminated: javac reports it
        k++;
      }
      const end = Math.min(n, source.startsWith(close, k) ? k + close.length : k);
      keep(i, end);
      i = end;
    } else {
      let k = i + 1;
      while (k < n && !/[\s"'/(){}[\];,]/.test(source[k]!)) k++;
      keep(i, k);
      i = k;
    }
  }
  for (const l of pending) firstOffset[l] = text.length;
  return { text, firstOffset };
}

/**
 * The line of `to` that holds what line `line` of `from` holds (two sources with the same normal form text); the
 * line itself when it is outside `from`. Undefined when `to` splits that line over several: which of them a
 * compiler or a stack trace would name depends on where in the line it points, which a line number does not say.
 */
export function remapLine(line: number, from: NormalForm, to: NormalForm): number | undefined {
  const start = from.firstOffset[line];
  if (start === undefined || line < 1) return line;
  const end = from.firstOffset[line + 1] ?? from.text.length;
  // the last line of `to` that starts at or before that offset
  let lo = 1;
  let hi = to.firstOffset.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (to.firstOffset[mid]! <= start) lo = mid;
    else hi = mid - 1;
  }
  const next = to.firstOffset[lo + 1];
  // the next line of `to` begins before this line's text ends: split (a space where the break was does not count)
  if (next !== undefined && next < end && to.text.slice(next, end).trim() !== '') return undefined;
  return lo;
}
