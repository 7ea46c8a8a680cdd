package repairlab.harness;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.function.Function;

/**
 * The order of a failing-first run's test classes that finds a failure early: the *relevant* classes first — those
 * whose code reaches a class the patch changed through the classes it names (read from the class files' constant
 * pools: what a run could load, so any project has them, not only bugs with Defects4J's lists) — then the rest. The
 * trigger tests run before either (TestSession). Only the order changes: a run that finds no failure still runs every
 * class, so a pass is the whole suite's pass, and a run that stops has a failing test either way.
 */
final class TestOrder {
  private TestOrder() {}

  /**
   * Class names each class file names, by the identity of its bytes: the warm worker's baseline class files are read
   * once and keep their arrays (ProjectLoader), so their constant pools are parsed once per JVM; a patch's freshly
   * compiled arrays are parsed per validation and dropped with them.
   */
  private static final Map<byte[], Set<String>> NAMED = Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * `testClasses` with the ones that reach a class in `changedTopLevel` (top-level binary names; their nested classes
   * count) first, each group in its given order.
   *
   * @param projectClasses the project's top-level classes, program and test: references are followed through these
   * @param bytesOf the class file a validation's loader would define for a binary name (null when none)
   */
  static List<String> relevantFirst(List<String> testClasses, Set<String> changedTopLevel, Set<String> projectClasses, Function<String, byte[]> bytesOf) {
    if (changedTopLevel.isEmpty()) return testClasses;
    Set<String> relevant = reaching(changedTopLevel, projectClasses, bytesOf);
    List<String> first = new ArrayList<>();
    List<String> rest = new ArrayList<>();
    for (String c : testClasses) (relevant.contains(c) ? first : rest).add(c);
    first.addAll(rest);
    return first;
  }

  /** Top-level project classes that name, directly or through other project classes, one of `targets`. */
  static Set<String> reaching(Set<String> targets, Set<String> projectClasses, Function<String, byte[]> bytesOf) {
    // edges reversed: for each top-level class, the top-level classes that name it (a nested class counts as its top level)
    Map<String, List<String>> namedBy = new HashMap<>();
    for (String cls : projectClasses) {
      Set<String> names = new HashSet<>();
      for (String member : membersOf(cls, bytesOf)) {
        byte[] b = bytesOf.apply(member);
        if (b != null) names.addAll(named(b));
      }
      for (String n : names) {
        String top = topLevel(n);
        if (!top.equals(cls) && projectClasses.contains(top)) namedBy.computeIfAbsent(top, k -> new ArrayList<>()).add(cls);
      }
    }
    Set<String> seen = new HashSet<>(targets);
    ArrayDeque<String> todo = new ArrayDeque<>(targets);
    while (!todo.isEmpty()) {
      for (String by : namedBy.getOrDefault(todo.poll(), List.of())) if (seen.add(by)) todo.add(by);
    }
    return seen;
  }

  /** A top-level class and its nested classes that have class files (found through the InnerClasses they name). */
  private static List<String> membersOf(String topLevel, Function<String, byte[]> bytesOf) {
    List<String> out = new ArrayList<>();
    ArrayDeque<String> todo = new ArrayDeque<>(List.of(topLevel));
    Set<String> seen = new HashSet<>(todo);
    while (!todo.isEmpty()) {
      String c = todo.poll();
      byte[] b = bytesOf.apply(c);
      if (b == null) continue;
      out.add(c);
      for (String n : named(b)) if (n.startsWith(c + "$") && seen.add(n)) todo.add(n);
    }
    return out;
  }

  static String topLevel(String binaryName) {
    int d = binaryName.indexOf('$');
    return d < 0 ? binaryName : binaryName.substring(0, d);
  }

  private static Set<String> named(byte[] classFile) {
    Set<String> known = NAMED.get(classFile);
    if (known != null) return known;
    Set<String> names;
    try {
      names = constantPoolNames(classFile);
    } catch (RuntimeException malformed) {
      names = Set.of(); // not a class file the JVM would define either: nothing to order by
    }
    NAMED.put(classFile, names);
    return names;
  }

  /** Binary names (dotted) in a class file's constant pool: its Class entries and the `L…;` types of its descriptors. */
  static Set<String> constantPoolNames(byte[] b) {
    java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(b);
    if (in.getInt() != 0xCAFEBABE) throw new IllegalArgumentException("not a class file");
    in.getShort();
    in.getShort();
    int count = in.getShort() & 0xFFFF;
    String[] utf8 = new String[count];
    List<Integer> classIndices = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      int tag = in.get() & 0xFF;
      switch (tag) {
        case 1: {
          int len = in.getShort() & 0xFFFF;
          // modified UTF-8; names are plain enough that ISO-8859-1 keeps '/', ';' and 'L' where they are
          utf8[i] = new String(b, in.position(), len, java.nio.charset.StandardCharsets.ISO_8859_1);
          in.position(in.position() + len);
          break;
        }
        case 7: classIndices.add(in.getShort() & 0xFFFF); break;
        case 8: case 16: case 19: case 20: in.getShort(); break;
        case 15: in.get(); in.getShort(); break;
        case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18: in.getInt(); break;
        case 5: case 6: in.getLong(); i++; break;
        default: throw new IllegalArgumentException("unknown constant pool tag " + tag);
      }
    }
    Set<String> out = new HashSet<>();
    for (int idx : classIndices) {
      String n = idx < count ? utf8[idx] : null;
      if (n == null) continue;
      // array classes name their element type as a descriptor
      if (n.startsWith("[")) descriptorTypes(n, out);
      else out.add(n.replace('/', '.'));
    }
    for (String s : utf8) if (s != null && s.indexOf(';') > 0) descriptorTypes(s, out);
    return out;
  }

  private static void descriptorTypes(String s, Set<String> out) {
    for (int i = s.indexOf('L'); i >= 0; i = s.indexOf('L', i + 1)) {
      int end = s.indexOf(';', i);
      if (end < 0) return;
      String name = s.substring(i + 1, end);
      // generic signatures nest `<`; a name holds neither those nor spaces
      if (!name.isEmpty() && name.indexOf('<') < 0 && name.indexOf(' ') < 0 && name.indexOf('(') < 0) out.add(name.replace('/', '.'));
    }
  }
}
