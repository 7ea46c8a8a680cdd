// Java code intelligence over source text: pure functions of the text, backed by one tree-sitter
// parser and a small parse cache (tools re-read the same files many times in a run).
import type { Node, Parser, Tree } from 'web-tree-sitter';
import type { LineRange, MethodInfo, TypeInfo } from '../contracts/java.ts';

/** A method with its source text (whole lines, from the doc comment or declaration start to the closing brace). */
export interface MethodSource extends MethodInfo {
  /** the method's lines, from `start` (annotations included) to `end` */
  text: string;
  /** the doc comment above plus the method, from `docStart ?? start` */
  textWithDoc: string;
}

export interface CallSite {
  /** 1-based */
  line: number;
  column: number;
  /** the called name */
  name: string;
  /** the whole call expression, single-spaced */
  call: string;
  /** the source line, trimmed */
  lineText: string;
  /** enclosing method, if any (innermost) */
  method?: string;
  className?: string;
}

/**
 * executable: has code beyond punctuation (statements, declarations, signatures);
 * structural: only braces, parentheses, semicolons, commas and else/try/finally/do;
 * comment: only comment text; blank: whitespace only.
 */
export type LineKind = 'executable' | 'structural' | 'comment' | 'blank';

export interface Declaration {
  name: string;
  kind: 'method' | 'constructor' | TypeInfo['kind'];
  line: number;
}

const TYPE_KINDS: Record<string, TypeInfo['kind']> = {
  class_declaration: 'class',
  interface_declaration: 'interface',
  enum_declaration: 'enum',
  record_declaration: 'record',
  annotation_type_declaration: 'annotation',
};
const METHOD_KINDS: Record<string, MethodInfo['kind']> = {
  method_declaration: 'method',
  constructor_declaration: 'constructor',
  compact_constructor_declaration: 'constructor',
};
const STRUCTURAL_TOKENS = new Set(['{', '}', '(', ')', ';', ',', 'else', 'try', 'finally', 'do']);
const CACHE_SIZE = 24;
const METHOD_MEMO_SIZE = 4096;

export class JavaAnalyzer {
  private readonly cache = new Map<string, Tree>();
  /** methods() per source text: code-base searches list every file's methods again and again */
  private readonly methodMemo = new Map<string, MethodInfo[]>();

  constructor(private readonly parser: Parser) {}

  /** Named types (nested ones as Outer.Inner, local classes included) in document order, each with its own methods. */
  types(source: string): TypeInfo[] {
    const types: TypeInfo[] = [];
    const visit = (node: Node, outer: string | undefined): void => {
      const kind = TYPE_KINDS[node.type];
      let name = outer;
      if (kind) {
        const simple = node.childForFieldName('name')?.text ?? '<anonymous>';
        name = outer ? `${outer}.${simple}` : simple;
        types.push({ name, kind, ...lines(node), methods: [] });
      }
      for (const child of node.namedChildren) if (child) visit(child, name);
    };
    visit(this.parse(source).rootNode, undefined);
    const byName = new Map(types.map((t) => [t.name, t]));
    for (const method of this.methods(source)) byName.get(method.className)?.methods.push(method);
    return types;
  }

  /** Every method and constructor (anonymous-class and local-class methods included), in document order. */
  methods(source: string): MethodInfo[] {
    const memo = this.methodMemo.get(source);
    if (memo) return memo.slice();
    const found = this.collectMethods(source);
    this.methodMemo.set(source, found.slice());
    if (this.methodMemo.size > METHOD_MEMO_SIZE) this.methodMemo.delete(this.methodMemo.keys().next().value as string);
    return found;
  }

  private collectMethods(source: string): MethodInfo[] {
    const out: MethodInfo[] = [];
    const lineTexts = source.split('\n');
    const visit = (node: Node, className: string): void => {
      const typeKind = TYPE_KINDS[node.type];
      if (typeKind) {
        const simple = node.childForFieldName('name')?.text ?? '<anonymous>';
        className = className ? `${className}.${simple}` : simple;
      } else if (node.type === 'class_body' && node.parent?.type === 'object_creation_expression') {
        className = `${className}.<anonymous>`; // kept out of types(): anonymous classes have no name to list
      }
      const kind = METHOD_KINDS[node.type];
      if (kind) out.push(methodInfo(node, kind, className, lineTexts));
      for (const child of node.namedChildren) if (child) visit(child, className);
    };
    visit(this.parse(source).rootNode, '');
    return out;
  }

  /** All methods/constructors called `name` (every overload), with their source. Constructors match their class name. */
  methodsByName(source: string, name: string): MethodSource[] {
    const lineTexts = source.split('\n');
    return this.methods(source)
      .filter((m) => m.name === name)
      .map((m) => withSource(m, lineTexts));
  }

  /** The enclosing method of a line with its source and doc comment (HAFix fn_pair: the function before/after a commit). */
  enclosingMethodSource(source: string, line: number, opts: { outermost?: boolean } = {}): MethodSource | undefined {
    const method = this.enclosingMethod(source, line, opts);
    return method ? withSource(method, source.split('\n')) : undefined;
  }

  /** The method containing a 1-based line (innermost by default; outermost for lambdas/anonymous classes inside a method). */
  enclosingMethod(source: string, line: number, opts: { outermost?: boolean } = {}): MethodInfo | undefined {
    const containing = this.methods(source).filter((m) => m.start <= line && line <= m.end);
    if (containing.length === 0) return undefined;
    // methods() is in document order, so containing methods nest outer → inner
    return opts.outermost ? containing[0] : containing[containing.length - 1];
  }

  /** The type containing a 1-based line (innermost). */
  enclosingType(source: string, line: number): TypeInfo | undefined {
    const containing = this.types(source).filter((t) => t.start <= line && line <= t.end);
    return containing[containing.length - 1];
  }

  /** Calls to a method called `name` (method invocations, and `new name(...)` for constructors). */
  callSites(source: string, name: string): CallSite[] {
    const root = this.parse(source).rootNode;
    const lineTexts = source.split('\n');
    const methods = this.methods(source);
    const sites: CallSite[] = [];
    for (const node of root.descendantsOfType(['method_invocation', 'object_creation_expression'])) {
      if (!node) continue;
      const nameNode = node.type === 'method_invocation' ? node.childForFieldName('name') : node.childForFieldName('type');
      const called = nameNode?.type === 'generic_type' ? nameNode.namedChildren[0]?.text : nameNode?.text;
      if (!nameNode || called?.split('.').pop() !== name) continue;
      const line = nameNode.startPosition.row + 1;
      const inside = methods.filter((m) => m.start <= line && line <= m.end).pop();
      sites.push({
        line,
        column: nameNode.startPosition.column + 1,
        name,
        call: singleSpaced(node.text),
        lineText: (lineTexts[line - 1] ?? '').trim(),
        ...(inside ? { method: inside.name, className: inside.className } : {}),
      });
    }
    return sites;
  }

  /**
   * Source of a test method given a test name: `method`, `Class::method` or `pkg.Class::method`.
   * Returns undefined when the file does not declare it (it may be inherited from a superclass).
   */
  testMethod(source: string, testName: string): MethodSource | undefined {
    const method = testName.includes('::') ? testName.slice(testName.indexOf('::') + 2) : testName;
    const candidates = this.methodsByName(source, method);
    const className = testName.includes('::') ? testName.slice(0, testName.indexOf('::')).split('.').pop() : undefined;
    return candidates.find((m) => className !== undefined && m.className.split('.').pop() === className) ?? candidates[0];
  }

  /** Classify every line of the file (index 0 = line 1). */
  classifyLines(source: string): LineKind[] {
    const lineTexts = source.split('\n');
    const hasCode = new Array<boolean>(lineTexts.length).fill(false);
    const structuralOnly = new Array<boolean>(lineTexts.length).fill(true);
    const hasComment = new Array<boolean>(lineTexts.length).fill(false);
    const visit = (node: Node): void => {
      if (node.type === 'line_comment' || node.type === 'block_comment') {
        for (let row = node.startPosition.row; row <= node.endPosition.row; row++) hasComment[row] = true;
        return;
      }
      if (node.childCount === 0) {
        if (node.startIndex === node.endIndex) return; // a MISSING token inserted by error recovery
        for (let row = node.startPosition.row; row <= node.endPosition.row; row++) {
          hasCode[row] = true;
          if (!STRUCTURAL_TOKENS.has(node.type) || node.startPosition.row !== node.endPosition.row) structuralOnly[row] = false;
        }
        return;
      }
      for (const child of node.children) if (child) visit(child);
    };
    visit(this.parse(source).rootNode);
    return lineTexts.map((text, row) => {
      if (hasCode[row]) return structuralOnly[row] ? 'structural' : 'executable';
      if (hasComment[row]) return 'comment';
      return text.trim() === '' ? 'blank' : 'executable';
    });
  }

  /** Kind of one 1-based line; throws RangeError naming the file length when the line is outside the file. */
  classifyLine(source: string, line: number): LineKind {
    const kinds = this.classifyLines(source);
    const kind = kinds[line - 1];
    if (kind === undefined) throw new RangeError(`line ${line} is outside the file (1–${kinds.length})`);
    return kind;
  }

  /** Names of every method, constructor, class, interface, enum, record and annotation type (HAFix fn_all), in document order. */
  declarations(source: string): Declaration[] {
    const out: Declaration[] = [];
    const visit = (node: Node): void => {
      const kind = TYPE_KINDS[node.type] ?? METHOD_KINDS[node.type];
      const name = node.childForFieldName('name')?.text;
      if (kind && name) out.push({ name, kind, line: node.startPosition.row + 1 });
      for (const child of node.namedChildren) if (child) visit(child);
    };
    visit(this.parse(source).rootNode);
    return out;
  }

  /** True when tree-sitter had to recover from syntax errors (results are then best-effort). */
  hasSyntaxErrors(source: string): boolean {
    return this.parse(source).rootNode.hasError;
  }

  private parse(source: string): Tree {
    const cached = this.cache.get(source);
    if (cached) {
      this.cache.delete(source);
      this.cache.set(source, cached); // most recently used last
      return cached;
    }
    const tree = this.parser.parse(source);
    if (!tree) throw new Error('tree-sitter returned no tree (parser has no language set)');
    this.cache.set(source, tree);
    if (this.cache.size > CACHE_SIZE) {
      const [oldestKey, oldest] = this.cache.entries().next().value as [string, Tree];
      this.cache.delete(oldestKey);
      oldest.delete(); // trees live in wasm memory
    }
    return tree;
  }
}

function withSource(m: MethodInfo, lineTexts: string[]): MethodSource {
  return {
    ...m,
    text: lineTexts.slice(m.start - 1, m.end).join('\n'),
    textWithDoc: lineTexts.slice((m.docStart ?? m.start) - 1, m.end).join('\n'),
  };
}

function lines(node: Node): LineRange {
  return { start: node.startPosition.row + 1, end: node.endPosition.row + 1 };
}

function singleSpaced(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function methodInfo(node: Node, kind: MethodInfo['kind'], className: string, lineTexts: string[]): MethodInfo {
  const body = node.childForFieldName('body');
  const headerEnd = body ? body.startIndex - node.startIndex : node.text.length;
  const signature = singleSpaced(node.text.slice(0, headerEnd).replace(/;\s*$/, ''));
  const info: MethodInfo = {
    name: node.childForFieldName('name')?.text ?? className.split('.').pop() ?? '',
    className,
    signature,
    kind,
    ...lines(node),
  };
  const docStart = commentBlockAbove(node, lineTexts);
  if (docStart !== undefined) info.docStart = docStart;
  return info;
}

/** Start line of the comment block directly above a declaration (contiguous own-line comments, no blank line between). */
function commentBlockAbove(node: Node, lineTexts: string[]): number | undefined {
  let docStart: number | undefined;
  let nextStartRow = node.startPosition.row;
  for (let sibling = node.previousSibling; sibling; sibling = sibling.previousSibling) {
    if (sibling.type !== 'block_comment' && sibling.type !== 'line_comment') break;
    if (sibling.endPosition.row < nextStartRow - 1) break; // a blank line (or more) in between
    const before = (lineTexts[sibling.startPosition.row] ?? '').slice(0, sibling.startPosition.column);
    if (before.trim() !== '') break; // a trailing comment of the previous member
    docStart = sibling.startPosition.row + 1;
    nextStartRow = sibling.startPosition.row;
  }
  return docStart;
}
