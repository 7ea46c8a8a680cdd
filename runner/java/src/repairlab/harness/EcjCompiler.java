package repairlab.harness;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Debian's ecj (Eclipse's batch compiler), for sources javac 17 no longer compiles (-source below 8, `enum` as an
 * identifier). Loaded in a loader of its own over the platform loader, so neither the harness nor the project sees
 * its classes; run in-process, so the warm worker pays for its start once.
 */
final class EcjCompiler {
  private static final Pattern HEADER = Pattern.compile("^(.+?\\.java):(\\d+): (error|warning): (.*)$");
  private final Method compile;
  private final String source;
  private final String target;
  /** the Java 8 API as class files (runner/src/java-env.ts, java8Api), or null for JDK 17's own library */
  private final String bootClassPath;
  /** the sources' -encoding (layout.encoding) */
  private final String encoding;

  EcjCompiler(String jar, String source, String target, String bootClassPath, String encoding) throws IOException {
    this.encoding = encoding;
    this.source = source;
    this.target = target;
    this.bootClassPath = bootClassPath;
    try {
      ClassLoader loader = Guard.harnessLoader(new URLClassLoader(new URL[] {Path.of(jar).toUri().toURL()}, ClassLoader.getPlatformClassLoader()));
      Class<?> batch = Class.forName("org.eclipse.jdt.core.compiler.batch.BatchCompiler", true, loader);
      Class<?> progress = Class.forName("org.eclipse.jdt.core.compiler.CompilationProgress", true, loader);
      compile = batch.getMethod("compile", String[].class, PrintWriter.class, PrintWriter.class, progress);
    } catch (ReflectiveOperationException e) {
      throw new IOException("ecj could not be loaded from " + jar + " (apt-get install ecj): " + e, e);
    }
  }

  static final class Result {
    boolean ok;
    List<Map<String, Object>> diagnostics = new ArrayList<>();
  }

  /** Compiles `sources` into `dest` against `classPath`; `repoPathOf` maps an absolute source path to its repo path. */
  Result compile(List<Path> sources, List<String> classPath, Path dest, Function<String, String> repoPathOf) throws IOException {
    Files.createDirectories(dest);
    List<String> args = new ArrayList<>(List.of("-source", source, "-target", target, "-encoding", encoding, "-proc:none", "-g", "-nowarn",
        "-Xemacs", "-d", dest.toString()));
    if (bootClassPath != null) {
      args.add("-bootclasspath");
      args.add(bootClassPath);
    }
    if (!classPath.isEmpty()) {
      args.add("-cp");
      args.add(String.join(java.io.File.pathSeparator, classPath));
    }
    for (Path s : sources) args.add(s.toString());
    StringWriter out = new StringWriter();
    Result r = new Result();
    try {
      r.ok = (Boolean) compile.invoke(null, args.toArray(new String[0]), new PrintWriter(out), new PrintWriter(out), null);
    } catch (ReflectiveOperationException e) {
      throw new IOException("ecj failed: " + e.getCause(), e);
    }
    for (String line : out.toString().split("\\R")) {
      Matcher m = HEADER.matcher(line);
      if (!m.matches() || r.diagnostics.size() >= 100) continue;
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("file", repoPathOf.apply(m.group(1)));
      d.put("line", Integer.parseInt(m.group(2)));
      d.put("kind", m.group(3));
      d.put("message", m.group(4));
      r.diagnostics.add(d);
    }
    if (!r.ok && r.diagnostics.stream().noneMatch(d -> "error".equals(d.get("kind")))) {
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("file", "");
      d.put("line", 0);
      d.put("kind", "error");
      String text = out.toString().trim();
      d.put("message", "ecj failed: " + text.substring(0, Math.min(2000, text.length())));
      r.diagnostics.add(d);
    }
    return r;
  }

  /** Every class file under `dir`, by binary name. */
  static Map<String, byte[]> readClasses(Path dir) throws IOException {
    Map<String, byte[]> out = new LinkedHashMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.filter(f -> f.toString().endsWith(".class"))::iterator) {
        String rel = dir.relativize(p).toString().replace('\\', '/');
        out.put(rel.substring(0, rel.length() - ".class".length()).replace('/', '.'), Files.readAllBytes(p));
      }
    }
    return out;
  }

  static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) return;
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) Files.deleteIfExists(p);
    }
  }
}
