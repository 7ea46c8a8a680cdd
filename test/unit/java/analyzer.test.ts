import { beforeAll, describe, expect, it } from 'vitest';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { requireJava, type JavaAnalyzer } from '../../../worker/java/index.ts';

const SOURCE = `package org.demo;

import java.util.List;

/**
 * A range of numbers.
 */
public class Range<T> {
    private int min; // lower bound

    /** Creates a range. */
    public Range(int min) {
        this.min = min;
    }

    // Whether x is inside.
    @Override
    public boolean contains(int x) {
        if (x < min) {
            return false;
        } else {
            return helper(x, "a // not a comment");
        }
    }

    public boolean contains(long x) {
        return contains((int) x);
    }

    private boolean helper(int x, String s) {
        Runnable r = new Runnable() {
            public void run() { helper(1, "b"); }
        };
        /* block
           comment */
        return x > 0
            && s != null;
    }

    interface Visitor { void visit(Range<?> r); }

    enum Kind { OPEN, CLOSED; boolean isOpen() { return this == OPEN; } }
}
`;

let java: JavaAnalyzer;
beforeAll(async () => {
  java = await initJavaForNode();
});

describe('JavaAnalyzer', () => {
  it('is the same analyzer requireJava() hands to tools once initialised', () => {
    expect(requireJava()).toBe(java);
  });

  it('lists types with line ranges and their own methods', () => {
    const types = java.types(SOURCE);
    expect(types.map((t) => [t.name, t.kind, t.start, t.end])).toEqual([
      ['Range', 'class', 8, 43],
      ['Range.Visitor', 'interface', 40, 40],
      ['Range.Kind', 'enum', 42, 42],
    ]);
    const range = types[0]!;
    expect(range.methods.map((m) => `${m.kind}:${m.name}:${m.start}-${m.end}`)).toEqual([
      'constructor:Range:12-14',
      'method:contains:17-24',
      'method:contains:26-28',
      'method:helper:30-38',
    ]);
    expect(types[2]!.methods.map((m) => m.name)).toEqual(['isOpen']);
  });

  it('gives signatures and the doc comment start', () => {
    const [ctor, contains] = java.methods(SOURCE);
    expect(ctor!.signature).toBe('public Range(int min)');
    expect(ctor!.docStart).toBe(11);
    expect(contains!.signature).toBe('@Override public boolean contains(int x)');
    expect(contains!.docStart).toBe(16);
    // a trailing comment of the field above is not a doc comment
    const fieldFollower = java.methods('class A {\n  int a; // x\n  void f() {}\n}\n')[0]!;
    expect(fieldFollower.docStart).toBeUndefined();
  });

  it('extracts every overload by name with its source', () => {
    const overloads = java.methodsByName(SOURCE, 'contains');
    expect(overloads).toHaveLength(2);
    expect(overloads[1]!.text).toBe('    public boolean contains(long x) {\n        return contains((int) x);\n    }');
    expect(overloads[0]!.textWithDoc.split('\n')[0]).toBe('    // Whether x is inside.');
    expect(java.methodsByName(SOURCE, 'missing')).toEqual([]);
  });

  it('finds the enclosing method of a line, innermost or outermost', () => {
    expect(java.enclosingMethod(SOURCE, 20)?.name).toBe('contains');
    expect(java.enclosingMethod(SOURCE, 32)?.name).toBe('run');
    expect(java.enclosingMethod(SOURCE, 32, { outermost: true })?.name).toBe('helper');
    expect(java.enclosingMethod(SOURCE, 9)).toBeUndefined();
    expect(java.enclosingType(SOURCE, 42)?.name).toBe('Range.Kind');
    const withDoc = java.enclosingMethodSource(SOURCE, 13)!;
    expect(withDoc.textWithDoc).toBe('    /** Creates a range. */\n    public Range(int min) {\n        this.min = min;\n    }');
    expect(java.enclosingMethodSource(SOURCE, 32, { outermost: true })?.name).toBe('helper');
    expect(java.enclosingMethodSource(SOURCE, 2)).toBeUndefined();
  });

  it('finds call sites of a method name with their enclosing method', () => {
    const sites = java.callSites(SOURCE, 'helper');
    expect(sites.map((s) => [s.line, s.method])).toEqual([
      [22, 'contains'],
      [32, 'run'],
    ]);
    expect(sites[0]!.call).toBe('helper(x, "a // not a comment")');
    expect(java.callSites(SOURCE, 'Runnable').map((s) => s.line)).toEqual([31]);
  });

  it('extracts a test method given Defects4J-style names', () => {
    const test = `package t;\npublic class RangeTest {\n  @Test\n  public void testContains() {\n    assertTrue(new Range(1).contains(2));\n  }\n}\n`;
    expect(java.testMethod(test, 't.RangeTest::testContains')?.text).toContain('assertTrue');
    expect(java.testMethod(test, 'testContains')?.start).toBe(3);
    expect(java.testMethod(test, 't.RangeTest::testOther')).toBeUndefined();
  });

  it('classifies lines as executable, structural, comment or blank', () => {
    const kinds = java.classifyLines(SOURCE);
    const at = (line: number) => kinds[line - 1];
    expect(at(2)).toBe('blank');
    expect(at(6)).toBe('comment'); // inside Javadoc
    expect(at(9)).toBe('executable'); // field with trailing comment
    expect(at(13)).toBe('executable');
    expect(at(14)).toBe('structural'); // }
    expect(at(21)).toBe('structural'); // } else {
    expect(at(22)).toBe('executable'); // string containing //
    expect(at(33)).toBe('structural'); // };
    expect(at(35)).toBe('comment'); // second line of a block comment
    expect(at(37)).toBe('executable'); // continuation line
    expect(java.classifyLine(SOURCE, 19)).toBe('executable');
    expect(() => java.classifyLine(SOURCE, 999)).toThrow(/outside the file/);
  });

  it('lists declared names for fn_all', () => {
    const names = java.declarations(SOURCE).map((d) => `${d.kind}:${d.name}`);
    expect(names).toEqual([
      'class:Range', 'constructor:Range', 'method:contains', 'method:contains', 'method:helper', 'method:run',
      'interface:Visitor', 'method:visit', 'enum:Kind', 'method:isOpen',
    ]);
  });

  it('stays usable on syntactically broken code', () => {
    const broken = 'class A {\n  void f() {\n    int x = ;\n  }\n}\n';
    expect(java.hasSyntaxErrors(broken)).toBe(true);
    expect(java.methods(broken).map((m) => m.name)).toEqual(['f']);
  });
});
