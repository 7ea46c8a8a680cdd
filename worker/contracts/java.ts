// Java code intelligence over source text (web-tree-sitter + tree-sitter-java). Implemented in worker/java/.

export interface LineRange {
  /** 1-based, inclusive */
  start: number;
  end: number;
}

export interface MethodInfo extends LineRange {
  name: string;
  className: string;
  /** signature text up to the body, single-spaced */
  signature: string;
  /** start line of the Javadoc/comment block directly above, if any */
  docStart?: number;
  kind: 'method' | 'constructor';
}

export interface TypeInfo extends LineRange {
  name: string;
  kind: 'class' | 'interface' | 'enum' | 'record' | 'annotation';
  methods: MethodInfo[];
}
