import { describe, expect, it } from 'vitest';
import { javaNormalForm, remapLine } from '../../../runner/src/java-normal-form.ts';

const nf = (s: string) => javaNormalForm(s)?.text;

describe('javaNormalForm', () => {
  it('equates sources that differ in layout and comments only', () => {
    const a = `class A {\n  int f(int a, int b) {\n    return a*b; // product\n  }\n}\n`;
    const b = `/** doc */\nclass A\n{\n\tint f( int a,int b )\n  {\n    return a*b; /* x */\n  }\n}`;
    expect(nf(a)).toBe(nf(b));
    expect(nf(a)).toBe('class A{int f(int a,int b){return a*b;}}');
  });

  it('keeps apart sources that javac reads differently', () => {
    expect(nf('x = a - -b;')).not.toBe(nf('x = a--b;'));
    expect(nf('x = a/**/b;')).not.toBe(nf('x = ab;'));
    expect(nf('s = "a  b";')).not.toBe(nf('s = "a b";'));
    expect(nf('s = "// not a comment";')).not.toBe(nf('s = "";'));
    expect(nf("c = '\\'';  d = 1;")).not.toBe(nf("c = '\\''; // d = 1;"));
    expect(nf('s = """\n  a  b\n  """;')).not.toBe(nf('s = """\n  a b\n  """;'));
    expect(nf('x = 1.5;')).not.toBe(nf('x = 1 .5;'));
  });

  it('compares a source with a Unicode escape as it is (javac translates escapes before comments)', () => {
    expect(javaNormalForm('int x = 1; // \\u000a x = 2;')).toBeUndefined();
  });

  it('maps a line of one source to the line of another with the same normal form', () => {
    const a = javaNormalForm('class A {\n  int f() {\n    return 1;\n  }\n}\n')!;
    const b = javaNormalForm('// header\n\nclass A\n{\n  int f()\n  {\n    return 1;\n  }\n}\n')!;
    expect(a.text).toBe(b.text);
    expect(remapLine(3, a, b)).toBe(7); // return 1;
    expect(remapLine(7, b, a)).toBe(3);
    expect(remapLine(5, b, a)).toBe(2); // b's "int f()" is on a's line 2, with its brace
    // b splits a's line 2 ("int f() {") over two: no single line holds it
    expect(remapLine(2, a, b)).toBeUndefined();
  });
});
