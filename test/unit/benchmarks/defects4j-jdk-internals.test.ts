import { describe, expect, it } from 'vitest';
import { allocatesThroughUnsafe, jdkInternalImports } from '../../../worker/node/defects4j/jdk-internal-imports.ts';

describe('the JDK-internal packages a bug\'s sources import', () => {
  it('finds com.sun.*.internal packages in single-type, on-demand and static imports, once each', () => {
    const xtb = 'package p;\nimport com.sun.org.apache.xerces.internal.jaxp.SAXParserFactoryImpl;\nimport java.util.List;\n';
    const star = 'package q;\n  import com.sun.xml.internal.stream.*;\nimport static com.sun.org.apache.xerces.internal.jaxp.JAXPConstants.JAXP_SCHEMA_LANGUAGE;\n';
    expect(jdkInternalImports([xtb, star])).toEqual(['com.sun.org.apache.xerces.internal.jaxp', 'com.sun.xml.internal.stream']);
  });

  it('leaves out com.sun API packages, other packages, and imports named only in comments or strings', () => {
    const text = [
      'import com.sun.net.httpserver.HttpServer;',
      'import org.internal.Thing;',
      '// see com.sun.org.apache.xerces.internal.jaxp.SAXParserFactoryImpl',
      'String s = "import com.sun.xml.internal.Foo;";',
    ].join('\n');
    expect(jdkInternalImports([text])).toEqual([]);
  });
});

describe('whether a bug\'s sources allocate through sun.misc.Unsafe', () => {
  const gson = 'Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");\nfinal Method allocateInstance = unsafeClass.getMethod("allocateInstance", Class.class);';
  it('finds Gson\'s UnsafeAllocator, not code that names only one of the two', () => {
    expect(allocatesThroughUnsafe(['class A {}', gson])).toBe(true);
    expect(allocatesThroughUnsafe(['Class.forName("sun.misc.Unsafe")', 'allocateInstance'])).toBe(false);
  });
});
