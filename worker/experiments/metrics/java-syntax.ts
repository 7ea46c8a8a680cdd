// Canonical forms of Java source for patch correctness, from the same tree-sitter-java grammar the engine uses.
//   exact form: the sequence of tokens (tree-sitter's leaves), comments included with their inner whitespace collapsed —
//               two sources have the same exact form iff they differ only in whitespace;
//   AST form:   the syntax tree (node types, leaf text) with comment nodes dropped — equal iff the sources differ
//               only in whitespace and comments.
// worker/java's analyzer keeps its parser private, so this module loads its own Parser over the same wasm (initJava
// initialises the runtime once per process; a second Language from the same bytes is cheap).
import { Language, Parser, type Node } from 'web-tree-sitter';
import { initJava, type JavaWasm } from '../../java/index.ts';

const COMMENT_TYPES = new Set(['line_comment', 'block_comment', 'comment']);

export interface JavaSyntax {
  exactForm(source: string): string;
  astForm(source: string): string;
  hasErrors(source: string): boolean;
}

class TreeSitterJavaSyntax implements JavaSyntax {
  constructor(private readonly parser: Parser) {}

  exactForm(source: string): string {
    return this.withRoot(source, (root) => {
      const tokens: string[] = [];
      const visit = (n: Node): void => {
        if (n.childCount === 0 || COMMENT_TYPES.has(n.type)) {
          tokens.push(COMMENT_TYPES.has(n.type) ? collapseWhitespace(n.text) : n.text);
          return;
        }
        for (const c of n.children) if (c) visit(c);
      };
      visit(root);
      return tokens.map((t) => JSON.stringify(t)).join(' ');
    });
  }

  astForm(source: string): string {
    return this.withRoot(source, (root) => {
      const visit = (n: Node): string => {
        if (n.childCount === 0) return `${n.type}:${JSON.stringify(n.text)}`;
        const kids = n.children.filter((c): c is Node => !!c && !COMMENT_TYPES.has(c.type)).map(visit);
        return `(${n.type} ${kids.join(' ')})`;
      };
      return visit(root);
    });
  }

  hasErrors(source: string): boolean {
    return this.withRoot(source, (root) => root.hasError);
  }

  private withRoot<T>(source: string, read: (root: Node) => T): T {
    const tree = this.parser.parse(source);
    if (!tree) throw new Error('tree-sitter returned no tree (the Java grammar is not set)');
    try {
      return read(tree.rootNode);
    } finally {
      tree.delete(); // trees live in wasm memory: free them, reports parse thousands of files
    }
  }
}

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A JavaSyntax over the host's wasm files (Node: `nodeJavaWasm()`; browser: the Vite URLs of wasm-urls.browser.ts). */
export async function loadJavaSyntax(wasm: JavaWasm): Promise<JavaSyntax> {
  await initJava(wasm);
  const language = await Language.load(wasm.javaWasm instanceof Uint8Array ? wasm.javaWasm : String(wasm.javaWasm));
  const parser = new Parser();
  parser.setLanguage(language);
  return new TreeSitterJavaSyntax(parser);
}
