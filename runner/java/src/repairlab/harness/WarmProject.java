package repairlab.harness;

import com.sun.source.util.JavacTask;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * The warm path's compiler: the whole project is compiled once into a baseline class directory; each patch then
 * compiles only its changed files in memory against those classes. When a changed file's non-private API
 * (members, types, constants) differs from the baseline, dependents may be stale, so everything is recompiled in memory.
 */
final class WarmProject {
  final Path root;
  final Path out;
  final List<String> sourceDirs;
  final List<String> testDirs;
  final List<Path> resourceDirs = new ArrayList<>();
  /** the layout's build steps, and their output kept while the classes they ran stay the same */
  final BuildSteps build;
  final List<String> jars;
  final int release;
  /** the sources' encoding (layout.encoding): javac's and ecj's -encoding, and how base sources are read and patched ones written */
  final java.nio.charset.Charset encoding;
  /** --release, resolved once (see ReleasePlatform); null when ecj compiles the project */
  private final ReleasePlatform platform;
  /** ecj for old sources (-source below 8): the baseline and every patch are compiled whole, to disk */
  private final EcjCompiler ecj;
  /** tests and classes left out of suite runs */
  final List<String> excludedTests;
  /** layout.testClassLoaders per-class: each test class gets a fresh project loader (Ant's junit reloading) */
  final boolean perClassLoaders;
  private int ecjBuilds = 0;
  private final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
  /** for the baseline and full rebuilds: class path = the project's jars */
  private final StandardJavaFileManager files;
  /** for incremental patches: class path = baseline classes + jars. Kept across validations so javac's caches
   *  (jar indexes, ct.sym for --release, directory listings) stay warm. */
  private StandardJavaFileManager incrementalFiles;
  /** repo path → absolute path of every base .java file */
  final Map<String, Path> baseSources = new TreeMap<>();
  /** texts of base sources read so far (the snapshot does not change under a worker) */
  private final Map<String, String> baseTexts = new HashMap<>();
  /** binary class name → API signature, from the baseline compile */
  private final Map<String, String> baselineSigs = new HashMap<>();
  /** repo path → binary names of the types the baseline declared in it */
  private final Map<String, Set<String>> baselineTypesByFile = new HashMap<>();
  boolean baselineCompiled = false;

  WarmProject(Request config) throws IOException {
    root = Path.of(config.get("root", "."));
    out = Path.of(config.get("out", "/tmp/classes"));
    sourceDirs = config.all("sourceDir");
    testDirs = config.all("testDir");
    for (String d : config.all("resourceDir")) resourceDirs.add(root.resolve(d));
    for (String d : config.all("testResourceDir")) resourceDirs.add(root.resolve(d));
    jars = config.all("jar");
    release = Integer.parseInt(config.get("release", "11"));
    encoding = java.nio.charset.Charset.forName(config.get("encoding", "UTF-8"));
    excludedTests = config.all("exclude");
    perClassLoaders = config.get("testClassLoaders", "shared").equals("per-class");
    // a worker serves one project: its jars link (or not) for the worker's life
    LinkedJars.allProjectJars = config.get("singleClassPath", "false").equals("true");
    build = new BuildSteps(config, root);
    if (config.get("compiler", "javac").equals("ecj")) {
      ecj = new EcjCompiler(config.get("ecjJar", "/usr/share/java/eclipse-jdt-core.jar"), config.get("source", "1.8"), config.get("target", "1.8"),
          config.get("bootClassPath", null), encoding.name());
      platform = null;
    } else {
      ecj = null;
      platform = ReleasePlatform.open(release);
    }
    files = compiler.getStandardFileManager(null, Locale.ROOT, encoding);
    files.setLocation(StandardLocation.CLASS_PATH, files(jars));
    List<String> roots = new ArrayList<>(sourceDirs);
    roots.addAll(testDirs);
    for (String dir : roots) {
      Path base = root.resolve(dir);
      if (!Files.isDirectory(base)) continue;
      try (Stream<Path> walk = Files.walk(base)) {
        walk.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
            .forEach(p -> baseSources.put(root.relativize(p).toString().replace('\\', '/'), p));
      }
    }
  }

  static String classNameOf(String repoPath, List<String> roots) {
    for (String r : roots) {
      String prefix = r.endsWith("/") ? r : r + "/";
      if (repoPath.startsWith(prefix) && repoPath.endsWith(".java")) {
        return repoPath.substring(prefix.length(), repoPath.length() - 5).replace('/', '.');
      }
    }
    return null;
  }

  List<String> allRoots() {
    List<String> roots = new ArrayList<>(sourceDirs);
    roots.addAll(testDirs);
    return roots;
  }

  private List<String> options() {
    List<String> o = new ArrayList<>(platform.options);
    o.addAll(List.of("-encoding", encoding.name(), "-proc:none", "-g", "-nowarn", "-implicit:none"));
    // String concatenation as StringBuilder calls (what javac emits for Java 8 targets) rather than invokedynamic:
    // every validation loads its classes afresh, and each invokedynamic site would be bootstrapped again (a few
    // per cent of a validation's test time). The cold path compiles the same way.
    o.add("-XDstringConcat=inline");
    return o;
  }

  private static List<java.io.File> files(List<String> paths) {
    List<java.io.File> out = new ArrayList<>();
    for (String p : paths) out.add(new java.io.File(p));
    return out;
  }

  static final class Outcome {
    boolean compiled;
    List<Map<String, Object>> diagnostics = new ArrayList<>();
    Map<String, byte[]> classes = new HashMap<>();
    boolean full;
    long ms;
    /** errors of a reused javac context that may be stale and were not confirmed by a fresh one (confirmErrors off) */
    boolean unconfirmed;
  }

  /** The snapshot's text of a source file, or null when the snapshot has no such source; read once per worker. */
  String baseText(String repoPath) throws IOException {
    String text = baseTexts.get(repoPath);
    Path source = baseSources.get(repoPath);
    if (text == null && source != null) baseTexts.put(repoPath, text = Files.readString(source, encoding));
    return text;
  }

  /** Compiles the whole base project to the baseline directory (once per worker). */
  Outcome compileBaseline() throws IOException {
    long t0 = System.currentTimeMillis();
    Files.createDirectories(out);
    Outcome o = new Outcome();
    if (ecj != null) {
      EcjCompiler.Result r = ecj.compile(new ArrayList<>(baseSources.values()), jars, out, this::repoPathOf);
      o.compiled = r.ok;
      o.diagnostics = r.diagnostics;
      baselineCompiled = o.compiled;
      baselineDiagnostics = o.diagnostics;
      o.ms = System.currentTimeMillis() - t0;
      return o;
    }
    Map<URI, String> names = new HashMap<>();
    files.setLocation(StandardLocation.CLASS_OUTPUT, List.of(out.toFile()));
    DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
    List<JavaFileObject> units = units(files, baseSources, Map.of(), names);
    JavacTask task = (JavacTask) compiler.getTask(null, platform.over(files), diags, options(), null, units);
    Map<String, String> sigs = new HashMap<>();
    Map<String, Set<String>> byFile = new HashMap<>();
    boolean ok = analyzeAndGenerate(task, sigs, byFile, names);
    o.compiled = ok && !hasErrors(diags);
    o.diagnostics = convert(diags, names);
    baselineSigs.putAll(sigs);
    baselineTypesByFile.putAll(byFile);
    baselineCompiled = o.compiled;
    baselineDiagnostics = o.diagnostics;
    incrementalFiles = compiler.getStandardFileManager(null, Locale.ROOT, encoding);
    List<java.io.File> cp = new ArrayList<>();
    cp.add(out.toFile());
    cp.addAll(files(jars));
    incrementalFiles.setLocation(StandardLocation.CLASS_PATH, cp);
    o.ms = System.currentTimeMillis() - t0;
    return o;
  }

  private static boolean analyzeAndGenerate(JavacTask task, Map<String, String> sigs, Map<String, Set<String>> byFile, Map<URI, String> names) {
    return analyzeAndGenerate(task, sigs, byFile, names, null);
  }

  /** @param declared if not null, receives the top-level types the sources declare (even when they do not compile) */
  private static boolean analyzeAndGenerate(JavacTask task, Map<String, String> sigs, Map<String, Set<String>> byFile, Map<URI, String> names, Set<String> declared) {
    try {
      if (declared != null) {
        for (com.sun.source.tree.CompilationUnitTree cu : task.parse()) {
          String pkg = cu.getPackageName() == null ? "" : cu.getPackageName() + ".";
          for (com.sun.source.tree.Tree t : cu.getTypeDecls()) {
            if (t instanceof com.sun.source.tree.ClassTree) declared.add(pkg + ((com.sun.source.tree.ClassTree) t).getSimpleName());
          }
        }
      }
      Elements elements = task.getElements();
      com.sun.source.util.Trees trees = com.sun.source.util.Trees.instance(task);
      for (Element e : task.analyze()) {
        if (e instanceof TypeElement) {
          TypeElement te = (TypeElement) e;
          String file = null;
          com.sun.source.util.TreePath path = trees.getPath(te);
          if (path != null) file = names.get(path.getCompilationUnit().getSourceFile().toUri());
          signature(te, elements, sigs, file, byFile);
        }
      }
      task.generate();
      return true;
    } catch (IOException | RuntimeException ex) {
      compilerCrash = ex.toString();
      return false;
    }
  }

  /** A compile error that no source line carries (the compiler itself failed). */
  private static Map<String, Object> errorWithoutFile(String message) {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("file", "");
    d.put("line", 0);
    d.put("kind", "error");
    d.put("message", message);
    return d;
  }

  /** why javac itself failed in the last analyzeAndGenerate (it reports no diagnostic then), or null */
  private static String compilerCrash;

  private static void signature(TypeElement te, Elements elements, Map<String, String> sigs, String file, Map<String, Set<String>> byFile) {
    StringBuilder b = new StringBuilder();
    b.append(te.getKind()).append(te.getModifiers()).append(te.getSuperclass()).append(te.getInterfaces()).append(te.getTypeParameters());
    for (Element e : te.getEnclosedElements()) {
      if (e.getModifiers().contains(Modifier.PRIVATE)) continue;
      if (e instanceof TypeElement) {
        signature((TypeElement) e, elements, sigs, file, byFile);
        b.append("|type ").append(e.getSimpleName());
        continue;
      }
      b.append('|').append(e.getKind()).append(e.getModifiers()).append(e.getSimpleName()).append(':').append(e.asType());
      if (e instanceof VariableElement) {
        Object c = ((VariableElement) e).getConstantValue();
        if (c != null) b.append('=').append(c);
      }
    }
    String name = elements.getBinaryName(te).toString();
    sigs.put(name, b.toString());
    if (file != null) byFile.computeIfAbsent(file, k -> new TreeSet<>()).add(name);
  }

  private static boolean hasErrors(DiagnosticCollector<JavaFileObject> diags) {
    for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) if (d.getKind() == Diagnostic.Kind.ERROR) return true;
    return false;
  }

  private static List<Map<String, Object>> convert(DiagnosticCollector<JavaFileObject> diags, Map<URI, String> names) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
      boolean error = d.getKind() == Diagnostic.Kind.ERROR;
      boolean warning = d.getKind() == Diagnostic.Kind.WARNING || d.getKind() == Diagnostic.Kind.MANDATORY_WARNING;
      if (!error && !warning) continue;
      if (list.size() >= 100) break;
      Map<String, Object> m = new LinkedHashMap<>();
      String file = "";
      if (d.getSource() != null) {
        URI uri = d.getSource().toUri();
        file = names.get(uri);
        if (file == null) file = "file".equals(uri.getScheme()) ? Path.of(uri).toString() : String.valueOf(uri.getPath());
      }
      m.put("file", file);
      m.put("line", (int) Math.max(0, d.getLineNumber()));
      if (d.getColumnNumber() > 0) m.put("column", (int) d.getColumnNumber());
      m.put("kind", error ? "error" : "warning");
      m.put("message", d.getMessage(Locale.ROOT));
      list.add(m);
    }
    return list;
  }

  /** Output classes to memory instead of disk. */
  private final class MemoryFiles extends ForwardingJavaFileManager<JavaFileManager> {
    final Map<String, ByteArrayOutputStream> classes = new HashMap<>();

    /** @param project the project's file manager; the release's locations are added here */
    MemoryFiles(StandardJavaFileManager project) {
      super(platform.over(project));
    }

    @Override
    public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind, FileObject sibling) {
      return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
        @Override
        public OutputStream openOutputStream() {
          ByteArrayOutputStream b = new ByteArrayOutputStream();
          classes.put(className, b);
          return b;
        }
      };
    }
  }

  /**
   * Compiles a patch: `changed` maps repo paths to their new content, `deleted` lists removed .java files.
   * Incremental when the API of every changed type is unchanged, otherwise a full in-memory rebuild.
   */
  Outcome compilePatch(Map<String, String> changed, Set<String> deleted) {
    return compilePatch(changed, deleted, true);
  }

  /**
   * @param confirmErrors whether errors of a reused javac context are confirmed by a fresh one (see compileInto); a
   *   batch's merged compile skips that, because its errors only send variants to be validated alone
   */
  Outcome compilePatch(Map<String, String> changed, Set<String> deleted, boolean confirmErrors) {
    long t0 = System.currentTimeMillis();
    Outcome o = new Outcome();
    if (changed.isEmpty() && deleted.isEmpty()) {
      // the baseline as compiled at start: its verdict and its diagnostics (errors of a snapshot that does not compile)
      o.compiled = baselineCompiled;
      o.diagnostics = new ArrayList<>(baselineDiagnostics);
      o.ms = 0;
      return o;
    }
    if (ecj != null) return compileWithEcj(changed, deleted, t0);
    boolean needFull = !baselineCompiled || !deleted.isEmpty();
    if (!needFull) {
      compileInto(o, Map.of(), changed, true, confirmErrors);
      if (!o.compiled) {
        o.ms = System.currentTimeMillis() - t0;
        return o;
      }
      needFull = apiChanged(o, changed) || declaresAnotherFilesType(changed.keySet());
    }
    if (needFull) {
      Map<String, Path> unchanged = new TreeMap<>(baseSources);
      unchanged.keySet().removeAll(deleted);
      unchanged.keySet().removeAll(changed.keySet());
      Outcome full = new Outcome();
      compileInto(full, unchanged, changed, false, true);
      full.full = true;
      full.ms = System.currentTimeMillis() - t0;
      return full;
    }
    o.ms = System.currentTimeMillis() - t0;
    return o;
  }

  /**
   * A patch compiled by ecj: the changed files are written next to the baseline's output and the whole project is
   * rebuilt into a fresh directory (ecj has no API-change analysis to make an incremental compile safe), whose
   * classes the validation then loads instead of the baseline's.
   */
  private Outcome compileWithEcj(Map<String, String> changed, Set<String> deleted, long t0) {
    Outcome o = new Outcome();
    o.full = true;
    Path work = out.resolveSibling("ecj-" + (ecjBuilds++));
    Path src = work.resolve("src");
    try {
      List<Path> sources = new ArrayList<>();
      for (Map.Entry<String, Path> e : baseSources.entrySet()) {
        if (!deleted.contains(e.getKey()) && !changed.containsKey(e.getKey())) sources.add(e.getValue());
      }
      for (Map.Entry<String, String> e : changed.entrySet()) {
        Path file = src.resolve(e.getKey()).normalize();
        if (!file.startsWith(src)) throw new IOException("not a usable source path: " + e.getKey());
        Files.createDirectories(file.getParent());
        // getBytes replaces what the charset cannot hold (a U+FFFD the client decoded) rather than failing the build
        Files.write(file, e.getValue().getBytes(encoding));
        sources.add(file);
      }
      Path classes = work.resolve("classes");
      EcjCompiler.Result r = ecj.compile(sources, jars, classes, p -> {
        Path abs = Path.of(p);
        return abs.startsWith(src) ? src.relativize(abs).toString().replace('\\', '/') : repoPathOf(p);
      });
      o.compiled = r.ok;
      o.diagnostics = r.diagnostics;
      if (r.ok) o.classes.putAll(EcjCompiler.readClasses(classes));
    } catch (IOException | RuntimeException e) {
      o.compiled = false;
      o.diagnostics.add(errorWithoutFile("ecj could not compile the patch: " + e));
    } finally {
      try {
        EcjCompiler.delete(work);
      } catch (IOException ignored) {
        // the worker's directory is removed with the worker
      }
    }
    o.ms = System.currentTimeMillis() - t0;
    return o;
  }

  /** A source's repo path from its absolute path (as ecj reports it). */
  private String repoPathOf(String absolute) {
    Path p = Path.of(absolute);
    return p.startsWith(root) ? root.relativize(p).toString().replace('\\', '/') : absolute;
  }

  /** whether ecj compiles this project (the batch path then validates variants one by one) */
  boolean usesEcj() {
    return ecj != null;
  }

  /** what compiling the snapshot reported (answered for a validation without changes) */
  private List<Map<String, Object>> baselineDiagnostics = new ArrayList<>();
  private Map<String, String> lastSigs = new HashMap<>();
  private Map<String, Set<String>> lastByFile = new HashMap<>();

  /**
   * The compilation units for repo paths read from `files` and repo paths whose content is `texts`; `names`
   * receives each unit's URI → its repo path (diagnostics and declared types are reported by repo path).
   */
  private static List<JavaFileObject> units(StandardJavaFileManager fm, Map<String, Path> files, Map<String, String> texts, Map<URI, String> names) {
    List<JavaFileObject> units = new ArrayList<>();
    for (Map.Entry<String, Path> e : files.entrySet()) {
      for (JavaFileObject u : fm.getJavaFileObjects(e.getValue())) {
        units.add(u);
        names.put(u.toUri(), e.getKey());
      }
    }
    for (Map.Entry<String, String> e : texts.entrySet()) {
      TextSource u = new TextSource(e.getKey(), e.getValue());
      units.add(u);
      names.put(u.toUri(), e.getKey());
    }
    return units;
  }

  /** A patched source held in memory, named by its repo path (javac checks a public class against the file name). */
  private static final class TextSource extends SimpleJavaFileObject {
    private final String text;

    TextSource(String repoPath, String text) {
      super(uriOf(repoPath), JavaFileObject.Kind.SOURCE);
      this.text = text;
    }

    private static URI uriOf(String repoPath) {
      try {
        return new URI("mem", null, "/" + repoPath, null);
      } catch (java.net.URISyntaxException e) {
        throw new IllegalArgumentException("not a usable source path: " + repoPath, e);
      }
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return text;
    }
  }

  private void compileInto(Outcome o, Map<String, Path> files, Map<String, String> texts, boolean againstBaseline, boolean confirmErrors) {
    Map<URI, String> names = new HashMap<>();
    StandardJavaFileManager delegate = againstBaseline ? incrementalFiles : this.files;
    DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
    lastSigs = new HashMap<>();
    lastByFile = new HashMap<>();
    List<JavaFileObject> units = units(delegate, files, texts, names);
    MemoryFiles mem;
    boolean ok;
    if (againstBaseline && pool != null) {
      // a reused javac context keeps the file manager and diagnostic listener of its first task: hand it the same
      // objects every time and swap what they write to
      if (pooledFiles == null) pooledFiles = new MemoryFiles(delegate);
      mem = pooledFiles;
      mem.classes.clear();
      pooledDiagnostics.target = diags;
      Set<String> declared = new HashSet<>();
      ok = pool.getTask(null, mem, pooledDiagnostics, options(), null, units, task -> analyzeAndGenerate((JavacTask) task, lastSigs, lastByFile, names, declared));
      // A reused context can go stale: once a patch compiled a class from source, the package member list it
      // cached no longer offers that class from the baseline (javac then reports "cannot find symbol" for it).
      // That cannot happen while every class the context ever compiled from source is compiled from source again
      // (write_fix's variants and an agent's successive edits of one file); otherwise errors are confirmed by a
      // fresh task, and a context that erred wrongly is thrown away.
      boolean mayBeStale = !declared.containsAll(pooledFromSource);
      pooledFromSource.addAll(declared);
      o.unconfirmed = !confirmErrors && mayBeStale && (!ok || hasErrors(diags));
      if (confirmErrors && mayBeStale && (!ok || hasErrors(diags))) {
        diags = new DiagnosticCollector<>();
        lastSigs = new HashMap<>();
        lastByFile = new HashMap<>();
        mem = new MemoryFiles(delegate);
        ok = analyzeAndGenerate((JavacTask) compiler.getTask(null, mem, diags, options(), null, units), lastSigs, lastByFile, names);
        if (ok && !hasErrors(diags)) {
          pool = ReusedJavac.newPool();
          pooledFiles = null;
          pooledFromSource.clear();
        }
      }
    } else {
      mem = new MemoryFiles(delegate);
      ok = analyzeAndGenerate((JavacTask) compiler.getTask(null, mem, diags, options(), null, units), lastSigs, lastByFile, names);
    }
    o.compiled = ok && !hasErrors(diags);
    o.diagnostics = convert(diags, names);
    if (!ok && compilerCrash != null && !hasErrors(diags)) {
      // a compile failure always names why: here javac's own exception
      o.diagnostics.add(errorWithoutFile("javac failed internally: " + compilerCrash));
    }
    compilerCrash = null;
    if (o.compiled) for (Map.Entry<String, ByteArrayOutputStream> e : mem.classes.entrySet()) o.classes.put(e.getKey(), e.getValue().toByteArray());
  }

  /** javac's reused context (ReusedJavac): about half of a small compile's CPU is loading the JDK's symbols. */
  private com.sun.tools.javac.api.JavacTaskPool pool = ReusedJavac.newPool();
  private MemoryFiles pooledFiles;
  /** top-level types the pooled context has compiled from source since it was created */
  private final Set<String> pooledFromSource = new HashSet<>();
  private final ReusedJavac.Diagnostics pooledDiagnostics = new ReusedJavac.Diagnostics();

  /**
   * Whether a changed file now declares a top-level type that another file of the snapshot declares: javac ties no
   * package to a folder, so `src/main/java/elsewhere/CalcTest.java` may declare `demo.CalcTest`. Compiled alone against
   * the baseline it would replace the test class of that name; the full compile that follows reports the duplicate.
   */
  private boolean declaresAnotherFilesType(Set<String> changedFiles) {
    for (String file : changedFiles) {
      for (String type : lastByFile.getOrDefault(file, Set.of())) {
        for (Map.Entry<String, Set<String>> e : baselineTypesByFile.entrySet()) {
          if (!e.getKey().equals(file) && e.getValue().contains(type)) return true;
        }
      }
    }
    return false;
  }

  private boolean apiChanged(Outcome o, Map<String, String> changed) {
    for (String file : changed.keySet()) {
      Set<String> before = baselineTypesByFile.getOrDefault(file, Set.of());
      Set<String> after = lastByFile.getOrDefault(file, Set.of());
      if (!after.containsAll(before)) return true;
      for (String type : after) {
        String old = baselineSigs.get(type);
        if (old != null && !old.equals(lastSigs.get(type))) return true;
      }
    }
    return false;
  }
}
