package repairlab.harness;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A fresh loader per validation for the project's classes: classes compiled in memory for this patch first,
 * then the baseline class directories. Static state therefore starts clean for every validation.
 *
 * Loading stays parent-first (a project class never shadows the harness's JUnit), but what does not change between
 * validations is remembered per JVM: the names the parent cannot load (asking again costs a class path search and
 * an exception each time) and the bytes of baseline class files (read once instead of once per validation).
 * Not parallel-capable: tests load their classes from one thread, and a per-name lock map is a cost every validation.
 */
final class ProjectLoader extends ClassLoader {
  private static final Set<String> PARENT_MISSES = ConcurrentHashMap.newKeySet();
  private static final Map<Path, byte[]> CLASS_FILES = new ConcurrentHashMap<>();
  /** marks a class file path known not to exist */
  private static final byte[] ABSENT = new byte[0];

  private final Map<String, byte[]> memory;
  private final List<Path> classDirs;
  private final List<Path> resourceDirs;
  /** when set, every class this loader defines, by name (before any transform): what a build step's output depends on */
  Map<String, byte[]> defined;
  /** optional hook that rewrites class bytes (coverage instrumentation) */
  final java.util.function.BiFunction<String, byte[], byte[]> transform;

  /** where this loader writes its classes as files when asked for one (warm path); null: its class directories serve them */
  private final Path classFileScratch;
  /** which classes are tests (by top-level binary name): they go to a directory apart, as the cold path compiles them */
  private final java.util.function.Predicate<String> isTestClass;
  /** the classes this loader defines, as class files: made on the first request for one as a resource */
  private Path classFileDir;
  /** the project's jars whose code names the project's classes: this loader defines their classes (LinkedJars) */
  private LinkedJars linkedJars;

  ProjectLoader(ClassLoader parent, Map<String, byte[]> memory, List<Path> classDirs, List<Path> resourceDirs,
      java.util.function.BiFunction<String, byte[], byte[]> transform) {
    this(parent, memory, classDirs, resourceDirs, transform, null, name -> false);
  }

  ProjectLoader(ClassLoader parent, Map<String, byte[]> memory, List<Path> classDirs, List<Path> resourceDirs,
      java.util.function.BiFunction<String, byte[], byte[]> transform, Path classFileScratch, java.util.function.Predicate<String> isTestClass) {
    super("repairlab-project", parent);
    this.memory = memory;
    this.classDirs = classDirs;
    this.resourceDirs = resourceDirs;
    this.transform = transform;
    this.classFileScratch = classFileScratch;
    this.isTestClass = isTestClass;
  }

  /**
   * Classes project code is never handed: the harness (whose state decides the verdict), and the JDK's doors to raw
   * memory. Code under test that names them gets a ClassNotFoundException / NoClassDefFoundError.
   */
  static boolean forbidden(String name) {
    // the superclasses of the accessors the JDK generates for reflection and serialization (defined in a loader
    // whose parent is this one): they must resolve, and the module system still keeps project code out of them
    // (java.base never exports or opens jdk.internal.reflect to it)
    if (JDK_ACCESSORS.contains(name)) return false;
    // the JDK's calendar internals: a TimeZone is a sun.util.calendar.ZoneInfo, which deserializing one resolves by
    // name through the caller's loader; java.base exports nothing of the package, so its Class object opens nothing
    if (name.startsWith("sun.util.calendar.")) return false;
    // every sun.* package by name (sun.misc.Unsafe among them; the guard refuses sun.misc, the module system the rest):
    // as a missing class they look as on a JVM without them, which tests written for several JVMs expect (Joda-Time's TestCalendarConverter asks
    // for sun.util.BuddhistCalendar and ignores a ClassNotFoundException; a SecurityException fails it)
    return name.startsWith("repairlab.harness.") || name.startsWith("jdk.internal.") || name.startsWith("sun.")
        || name.startsWith("jdk.jshell.") || name.startsWith("com.sun.tools.attach.");
  }

  /**
   * layout.sunMiscUnsafe "allocate-only" (-Drepairlab.sunMiscUnsafe=allocate-only): code under test gets, as
   * sun.misc.Unsafe, UnsafeAllocateOnly (allocateInstance alone), which resolves the ReflectionFactory it uses here.
   */
  static final boolean UNSAFE_ALLOCATE_ONLY = "allocate-only".equals(System.getProperty("repairlab.sunMiscUnsafe"));
  private static final String UNSAFE = "sun.misc.Unsafe";
  private static final String REFLECTION_FACTORY = "sun.reflect.ReflectionFactory";
  /**
   * UnsafeAllocateOnly's class file, renamed sun/misc/Unsafe: made before any code under test runs, since the guard
   * refuses the JDK's ASM while project code is on the stack.
   */
  private static final byte[] UNSAFE_BYTES = UNSAFE_ALLOCATE_ONLY ? renamedClass(UnsafeAllocateOnly.class, UNSAFE) : null;

  private Class<?> unsafeAllocateOnly() {
    synchronized (getClassLoadingLock(UNSAFE)) {
      Class<?> c = findLoadedClass(UNSAFE);
      return c != null ? c : defineClass(UNSAFE, UNSAFE_BYTES, 0, UNSAFE_BYTES.length);
    }
  }

  /** The class code under test reaches for System.setSecurityManager / getSecurityManager (ProjectSecurityManager). */
  static final String SECURITY_SLOT = "repairlab.project.SecurityManagerSlot";
  private static final String SECURITY_SLOT_INTERNAL = SECURITY_SLOT.replace('.', '/');
  private static final byte[] SECURITY_SLOT_BYTES = renamedClass(ProjectSecurityManager.class, SECURITY_SLOT);
  /** set once any loader defined its slot: until then the guard need not look for a project's own manager */
  static volatile boolean securitySlotsInUse;
  /** this loader's slot, once code under test named it */
  private volatile Class<?> securitySlot;
  private volatile java.lang.reflect.Field installedField;

  private Class<?> securitySlot() {
    synchronized (getClassLoadingLock(SECURITY_SLOT)) {
      Class<?> c = findLoadedClass(SECURITY_SLOT);
      if (c == null) {
        c = defineClass(SECURITY_SLOT, SECURITY_SLOT_BYTES, 0, SECURITY_SLOT_BYTES.length);
        securitySlot = c;
        securitySlotsInUse = true;
      }
      return c;
    }
  }

  /** The security manager code under test installed in this loader's slot, or null (asked by the guard only). */
  SecurityManager projectSecurityManager() {
    Class<?> slot = securitySlot;
    if (slot == null) return null;
    try {
      java.lang.reflect.Field field = installedField;
      if (field == null) installedField = field = slot.getField("installed");
      return (SecurityManager) field.get(null);
    } catch (ReflectiveOperationException | ClassCastException e) {
      return null;
    }
  }

  /** A harness class's bytes under another binary name (every reference to its own name renamed with it). */
  private static byte[] renamedClass(Class<?> template, String name) {
    String internal = template.getName().replace('.', '/');
    try (java.io.InputStream in = template.getResourceAsStream(template.getSimpleName() + ".class")) {
      if (in == null) throw new IllegalStateException(name + ": the harness lacks " + internal + ".class");
      jdk.internal.org.objectweb.asm.ClassReader reader = new jdk.internal.org.objectweb.asm.ClassReader(in.readAllBytes());
      jdk.internal.org.objectweb.asm.ClassWriter writer = new jdk.internal.org.objectweb.asm.ClassWriter(0);
      reader.accept(new jdk.internal.org.objectweb.asm.commons.ClassRemapper(writer,
          new jdk.internal.org.objectweb.asm.commons.SimpleRemapper(internal, name.replace('.', '/'))), 0);
      return writer.toByteArray();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("reading the harness's " + internal + ".class for " + name, e);
    }
  }

  private static final Set<String> JDK_ACCESSORS = Set.of("jdk.internal.reflect.MagicAccessorImpl", "jdk.internal.reflect.ConstructorAccessorImpl",
      "jdk.internal.reflect.MethodAccessorImpl", "jdk.internal.reflect.SerializationConstructorAccessorImpl", "jdk.internal.reflect.FieldAccessorImpl");

  /** Defines the classes of the project's jars that name `projectClasses` here, so that they see them (LinkedJars). */
  ProjectLoader linkJarsOf(Set<String> projectClasses) {
    linkedJars = LinkedJars.forProject(projectClasses);
    return this;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (UNSAFE_ALLOCATE_ONLY && UNSAFE.equals(name)) return unsafeAllocateOnly();
    if (SECURITY_SLOT.equals(name)) return securitySlot();
    // ReflectionFactory (jdk.unsupported exports it; it makes objects, it reaches none): allocate-only's Unsafe uses
    // it, and with every jar linked Objenesis (behind Mockito and PowerMock) asks this loader for it, not the parent
    if (forbidden(name) && !((UNSAFE_ALLOCATE_ONLY || LinkedJars.allProjectJars) && REFLECTION_FACTORY.equals(name))) {
      throw new ClassNotFoundException(name + " is not available to code under test (RepairLab runner)");
    }
    if (JDK_ACCESSORS.contains(name) && resolvingReflectionAccessor()) return jdkAccessor(name);
    synchronized (getClassLoadingLock(name)) {
      Class<?> c = findLoadedClass(name);
      // a linked jar's class, which the parent would define where the project's classes are out of its sight
      if (c == null && linkedJars != null && linkedJars.owns(name, getParent())) c = findClass(name);
      if (c == null && !PARENT_MISSES.contains(name)) {
        try {
          c = getParent().loadClass(name);
        } catch (ClassNotFoundException e) {
          PARENT_MISSES.add(name);
        }
      }
      if (c == null) c = findClass(name);
      if (resolve) resolveClass(c);
      return c;
    }
  }

  /**
   * Whether the JVM asks for `name` while it defines an accessor class the JDK generated (jdk.internal.reflect's
   * ClassDefiner, behind Method.invoke and serialization constructors): only class loaders' loadClass frames lie
   * between. A generated accessor's loader delegates to the loader of the class it serves; where that is a project's
   * own loader (PowerMock's MockClassLoader, behind Objenesis), the project's frame sits above the JDK's doPrivileged
   * and the guard would refuse the JDK its own superclass.
   */
  private static boolean resolvingReflectionAccessor() {
    return ACCESSOR_WALKER.walk((frames) -> {
      boolean inLoaders = false; // this method's own frames come first, then ProjectLoader.loadClass
      for (java.util.Iterator<StackWalker.StackFrame> it = frames.iterator(); it.hasNext();) {
        StackWalker.StackFrame f = it.next();
        String cls = f.getClassName();
        String method = f.getMethodName();
        if (method.equals("loadClass")) {
          inLoaders = true;
          continue;
        }
        if (!inLoaders) continue;
        if (cls.equals("java.lang.ClassLoader") && method.equals("defineClass1")) continue;
        if (cls.equals("java.lang.System$2") && method.equals("defineClass")) continue;
        return cls.equals("jdk.internal.reflect.ClassDefiner") && method.equals("defineClass");
      }
      return false;
    });
  }

  private static final StackWalker ACCESSOR_WALKER = StackWalker.getInstance(java.util.Set.of(), 16);

  /** One of the JDK's accessor superclasses, loaded by the parent as the JDK's own privileged work. */
  private Class<?> jdkAccessor(String name) throws ClassNotFoundException {
    try {
      return java.security.AccessController.doPrivileged((java.security.PrivilegedExceptionAction<Class<?>>) () -> getParent().loadClass(name));
    } catch (java.security.PrivilegedActionException e) {
      throw (ClassNotFoundException) e.getException();
    }
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    byte[] bytes = bytesOf(name);
    if (bytes == null) throw new ClassNotFoundException(name);
    if (defined != null) defined.put(name, bytes);
    bytes = SecurityManagerCalls.redirect(bytes, SECURITY_SLOT_INTERNAL);
    if (transform != null) bytes = transform.apply(name, bytes);
    return defineClass(name, bytes, 0, bytes.length);
  }

  /** The bytes this loader would define for a class (before any transform), or null when it has none. */
  byte[] bytesOf(String name) {
    byte[] bytes = memory.get(name);
    if (bytes != null) return bytes;
    String rel = name.replace('.', '/') + ".class";
    for (Path dir : classDirs) {
      try {
        byte[] b = classFile(dir.resolve(rel));
        if (b != ABSENT) return b;
      } catch (ClassNotFoundException e) {
        return null;
      }
    }
    return linkedJars == null ? null : linkedJars.bytes(name);
  }

  /** A class file's bytes (ABSENT when there is none); class directories do not change while a JVM uses them. */
  private static byte[] classFile(Path p) throws ClassNotFoundException {
    byte[] b = CLASS_FILES.get(p);
    if (b != null) return b;
    try {
      b = Files.isRegularFile(p) ? Files.readAllBytes(p) : ABSENT;
    } catch (IOException e) {
      throw new ClassNotFoundException(p.toString(), e);
    }
    CLASS_FILES.put(p, b);
    return b;
  }

  private List<Path> resourceRoots() {
    List<Path> roots = new ArrayList<>(resourceDirs);
    roots.addAll(classDirs);
    return roots;
  }

  /**
   * Class files as resources, as a class path directory serves them: tests find a class's code source by its
   * `.class` resource and build class loaders over the directory it lies in (Mockito's ClassLoaders: `getResource(
   * "org/mockito/Mockito.class")`, then a URLClassLoader over the URL minus that path). On the warm path a validation's
   * changed classes (or, after an API change, all of them) exist only in memory, and the baseline directory holds the
   * unchanged ones and the old versions of the changed: so the first such request writes this loader's classes — the
   * class directories' files with the in-memory ones over them — to a directory of its own, which answers for class
   * files from then on: program classes under main/, test classes under test/, as the cold path (and Defects4J's
   * builds) compile them apart — Mockito's NoJUnitDependenciesTest takes every class beside Mockito.class for
   * Mockito's own. Null when this loader writes no such directory (the cold path: its class directories are it).
   */
  private Path classFiles(String name) {
    if (!name.endsWith(".class") || classFileScratch == null) return null;
    try {
      // written by the harness in the worker's directory, which the guard keeps from code under test: privileged,
      // as the request for a class file comes from the tests' stack
      @SuppressWarnings("removal")
      Path dir = java.security.AccessController.doPrivileged((java.security.PrivilegedExceptionAction<Path>) this::classFileDir);
      Path main = dir.resolve("main").resolve(name);
      return Files.isRegularFile(main) ? main : dir.resolve("test").resolve(name);
    } catch (java.security.PrivilegedActionException e) {
      throw new java.io.UncheckedIOException("writing the project's classes as files for " + name, (IOException) e.getException());
    }
  }

  /**
   * This loader's classes as files (classFileDir), written now: the warm path's view of the tree links the build's
   * output directories (target/classes) to it before the tests run (ProjectView.prepare). Harness thread only.
   */
  Path classFilesDir() throws IOException {
    if (classFileScratch == null) throw new IllegalStateException("this loader writes no class files (no scratch directory)");
    return classFileDir();
  }

  /**
   * The class-file directory last made, and the compiled classes it was made of: the loaders of one validation (one
   * per test class, layout.testClassLoaders) share it — the build's output directories may already lead there.
   */
  private static Map<String, byte[]> madeOf;
  private static Path made;

  private Path classFileDir() throws IOException {
    synchronized (ProjectLoader.class) {
      if (classFileDir != null) return classFileDir;
      if (madeOf == memory && made != null && Files.isDirectory(made)) return classFileDir = made;
      classFileDir = newClassFileDir();
      madeOf = memory;
      made = classFileDir;
      return classFileDir;
    }
  }

  private Path newClassFileDir() throws IOException {
    // one such directory per worker at a time: an earlier validation's is stale
    try (java.util.stream.Stream<Path> old = Files.list(classFileScratch)) {
      for (Path p : (Iterable<Path>) old.filter(p -> p.getFileName().toString().startsWith(CLASS_FILE_DIR_PREFIX))::iterator) EcjCompiler.delete(p);
    }
    Path dir = Files.createTempDirectory(classFileScratch, CLASS_FILE_DIR_PREFIX);
    for (Path from : classDirs) {
      if (!Files.isDirectory(from)) continue;
      try (java.util.stream.Stream<Path> files = Files.walk(from)) {
        for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class") && Files.isRegularFile(f))::iterator) {
          String rel = from.relativize(f).toString().replace(java.io.File.separatorChar, '/');
          Path to = classFileIn(dir, rel.substring(0, rel.length() - ".class".length()).replace('/', '.'));
          Files.createDirectories(to.getParent());
          Files.copy(f, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    for (Map.Entry<String, byte[]> c : memory.entrySet()) {
      Path to = classFileIn(dir, c.getKey());
      Files.createDirectories(to.getParent());
      Files.write(to, c.getValue());
    }
    return dir;
  }

  /** Where a class's file goes: under main/ or test/ by its top-level class. */
  private Path classFileIn(Path dir, String binaryName) {
    return dir.resolve(isTestClass.test(topLevel(binaryName)) ? "test" : "main").resolve(binaryName.replace('.', '/') + ".class");
  }

  /** The top-level class a binary name belongs to (`a.B$C` → `a.B`). */
  static String topLevel(String binaryName) {
    int nested = binaryName.indexOf('$');
    return nested < 0 ? binaryName : binaryName.substring(0, nested);
  }

  private static final String CLASS_FILE_DIR_PREFIX = "class-files-";

  @Override
  protected URL findResource(String name) {
    Path classFile = classFiles(name);
    if (classFile != null) return Files.isRegularFile(classFile) ? fileUrl(classFile) : null;
    for (Path dir : resourceRoots()) {
      Path p = dir.resolve(name);
      if (Files.exists(p)) return fileUrl(p);
    }
    return null;
  }

  private static URL fileUrl(Path p) {
    try {
      return p.toUri().toURL();
    } catch (MalformedURLException e) {
      return null;
    }
  }

  @Override
  protected Enumeration<URL> findResources(String name) {
    List<URL> urls = new ArrayList<>();
    Path classFile = classFiles(name);
    if (classFile != null) {
      if (Files.isRegularFile(classFile)) urls.add(fileUrl(classFile));
      return Collections.enumeration(urls);
    }
    for (Path dir : resourceRoots()) {
      Path p = dir.resolve(name);
      URL url = Files.exists(p) ? fileUrl(p) : null;
      if (url != null) urls.add(url);
    }
    return Collections.enumeration(urls);
  }
}
