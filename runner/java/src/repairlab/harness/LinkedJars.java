package repairlab.harness;

import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The project's jars whose code names the project's own classes: Closure's lib/caja-r4314.jar was built against
 * Closure's jsonml package, and its JsonMLParser returns a com.google.javascript.jscomp.jsonml.JsonML. On ant's single
 * class path (Defects4J's) such a jar sees the project's classes; the runner keeps jars on the application class path,
 * whose loader cannot see them (NoClassDefFoundError: com/google/javascript/jscomp/jsonml/TagType in all 33
 * JsonMLConversionTest tests of every Closure bug). ProjectLoader therefore defines a linked jar's classes itself —
 * per validation, so they link to that patch's classes — and leaves every other jar to the parent.
 *
 * Which jars link is read from the class files (constant pools), never from names: a jar links when a class in it
 * names a class the project defines and the jar does not. Indexes are kept per JVM: jars do not change under it.
 */
final class LinkedJars {
  private static final Map<Path, JarIndex> INDEX = new ConcurrentHashMap<>();
  /** class name → the class-path jar the parent loads it from ("" when from no jar): stable for a JVM */
  private static final Map<String, String> PARENT_JAR = new ConcurrentHashMap<>();

  private final Map<String, JarIndex> linked;

  /**
   * layout.singleClassPath: every project jar links, as on Ant's single class path (PowerMock's MockClassLoader reads
   * the test's classes as resources through the loader PowerMock came from). Set once per JVM: a JVM serves one project.
   */
  static volatile boolean allProjectJars;

  private LinkedJars(Map<String, JarIndex> linked) {
    this.linked = linked;
  }

  /** The class path's jars that name one of `projectClasses` (top-level binary names); null when none does. */
  static LinkedJars forProject(Set<String> projectClasses) {
    Map<String, JarIndex> linked = new java.util.LinkedHashMap<>();
    for (Path jar : classPathJars()) {
      JarIndex index = INDEX.computeIfAbsent(jar, JarIndex::read);
      if (allProjectJars) {
        linked.put(jar.toString(), index);
        continue;
      }
      for (String named : index.namedElsewhere) {
        if (projectClasses.contains(named)) {
          linked.put(jar.toString(), index);
          break;
        }
      }
    }
    return linked.isEmpty() ? null : new LinkedJars(linked);
  }

  /**
   * The project's jars on this JVM's class path (`repairlab.project.jars`). The runner's own JUnit and hamcrest never
   * link: a patch that defined a class JUnit names (org.hamcrest.Matcher) would otherwise take JUnit's classes into
   * the project's loader, apart from the JUnit that runs the tests.
   */
  private static List<Path> classPathJars() {
    List<Path> jars = new ArrayList<>();
    for (String entry : System.getProperty("repairlab.project.jars", "").split(File.pathSeparator)) {
      if (entry.endsWith(".jar") && Files.isRegularFile(Path.of(entry))) jars.add(Path.of(entry).toAbsolutePath().normalize());
    }
    return jars;
  }

  /**
   * Whether `name` is a class the parent would load from a linked jar: the project's loader defines that copy itself.
   * A class the parent finds first in another jar stays the parent's, as the first jar on a class path wins.
   */
  boolean owns(String name, ClassLoader parent) {
    boolean defined = false;
    for (JarIndex index : linked.values()) {
      if (index.defines.contains(name)) {
        defined = true;
        break;
      }
    }
    if (!defined) return false;
    String jar = PARENT_JAR.computeIfAbsent(name, n -> jarOf(parent.getResource(n.replace('.', '/') + ".class")));
    return linked.containsKey(jar);
  }

  private static String jarOf(URL url) {
    if (url == null || !url.getProtocol().equals("jar")) return "";
    String spec = url.getPath(); // file:/path/x.jar!/a/B.class
    int bang = spec.indexOf("!/");
    if (bang < 0 || !spec.startsWith("file:")) return "";
    try {
      return Path.of(new java.net.URI(spec.substring(0, bang))).normalize().toString(); // absolute already: a file: URL
    } catch (java.net.URISyntaxException | IllegalArgumentException e) {
      return "";
    }
  }

  /** The class file of `name` in the linked jar the parent would load it from, or null. */
  byte[] bytes(String name) {
    JarIndex index = linked.get(PARENT_JAR.getOrDefault(name, ""));
    return index == null ? null : index.bytes(name);
  }

  /** One jar: the classes it defines, the classes its code names but does not define (top-level names), its entries. */
  private static final class JarIndex {
    final Set<String> defines = new HashSet<>();
    final Set<String> namedElsewhere = new HashSet<>();
    private final JarFile file;

    private JarIndex(JarFile file) {
      this.file = file;
    }

    static JarIndex read(Path jar) {
      try {
        JarIndex index = new JarIndex(new JarFile(jar.toFile()));
        Set<String> named = new HashSet<>();
        for (Enumeration<JarEntry> e = index.file.entries(); e.hasMoreElements();) {
          JarEntry entry = e.nextElement();
          String n = entry.getName();
          if (!n.endsWith(".class") || n.startsWith("META-INF/") || entry.isDirectory()) continue;
          index.defines.add(n.substring(0, n.length() - ".class".length()).replace('/', '.'));
          try (InputStream in = index.file.getInputStream(entry)) {
            ClassNames.named(in.readAllBytes(), named);
          }
        }
        for (String n : named) {
          String topLevel = ProjectLoader.topLevel(n);
          if (!index.defines.contains(topLevel)) index.namedElsewhere.add(topLevel);
        }
        return index;
      } catch (IOException | RuntimeException e) {
        // an unreadable jar links to nothing: the parent still loads (or fails to load) it as before
        return new JarIndex(null);
      }
    }

    byte[] bytes(String name) {
      if (file == null) return null;
      JarEntry entry = file.getJarEntry(name.replace('.', '/') + ".class");
      if (entry == null) return null;
      try (InputStream in = file.getInputStream(entry)) {
        return in.readAllBytes();
      } catch (IOException e) {
        return null;
      }
    }
  }

  /** The classes a class file names (binary names): its CONSTANT_Class entries and the types in its descriptors. */
  static final class ClassNames {
    static void named(byte[] classFile, Set<String> into) throws IOException {
      DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(classFile));
      if (in.readInt() != 0xCAFEBABE) return;
      in.readUnsignedShort();
      in.readUnsignedShort();
      int count = in.readUnsignedShort();
      String[] utf8 = new String[count];
      List<Integer> classNames = new ArrayList<>();
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> utf8[i] = in.readUTF();
          case 7 -> classNames.add(in.readUnsignedShort());
          case 8, 16, 19, 20 -> in.skipBytes(2);
          case 15 -> in.skipBytes(3);
          case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
          case 5, 6 -> {
            in.skipBytes(8);
            i++; // a long or double takes two entries
          }
          default -> throw new IOException("unknown constant pool tag " + tag);
        }
      }
      for (int idx : classNames) {
        String n = idx < count ? utf8[idx] : null;
        if (n == null) continue;
        if (n.startsWith("[")) descriptorTypes(n, into);
        else into.add(n.replace('/', '.'));
      }
      // field and method types appear only in descriptors (e.g. "(Lcom/google/javascript/jscomp/jsonml/JsonML;)V")
      for (String s : utf8) {
        if (s != null && s.indexOf(';') > 0) descriptorTypes(s, into);
      }
    }

    private static void descriptorTypes(String s, Set<String> into) {
      int at = 0;
      while ((at = s.indexOf('L', at)) >= 0) {
        int end = s.indexOf(';', at);
        if (end < 0) return;
        String candidate = s.substring(at + 1, end);
        // a descriptor's class name has no '<', '(' or ':' (signatures and other text may hold an 'L' too)
        if (!candidate.isEmpty() && candidate.chars().allMatch(c -> Character.isJavaIdentifierPart(c) || c == '/')) {
          into.add(candidate.replace('/', '.'));
          at = end + 1;
        } else {
          at = at + 1;
        }
      }
    }
  }
}
