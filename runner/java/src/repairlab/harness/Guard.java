package repairlab.harness;

import java.io.File;
import java.io.FilePermission;
import java.lang.reflect.ReflectPermission;
import java.nio.file.LinkPermission;
import java.security.AccessControlException;
import java.security.AccessController;
import java.security.Permission;
import java.security.Policy;
import java.security.ProtectionDomain;
import java.util.regex.Pattern;

/**
 * Keeps code under test from ending or taking over the harness JVM. The OS sandbox (bubblewrap / Docker) is the real
 * boundary; this guard decides by WHO asks, never by a flag code could flip: a sensitive permission is refused when
 * code under test is on the calling stack (a frame whose class was not loaded by the boot, platform or application
 * loader — ProjectLoader or any loader it made) or in the thread's inherited access-control context (a thread that
 * project code created, even if it now runs only JDK frames). The harness's own calls pass: none of its frames are
 * project code. (SecurityManager is deprecated but still functional on JDK 17.)
 */
final class Guard extends SecurityManager {
  private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();
  private static final ClassLoader APP = ClassLoader.getSystemClassLoader();
  private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
  /** granted to every domain but project code's: asking for it tells whether project code is in the context */
  private static final Permission TRUSTED_ONLY = new RuntimePermission("repairlab.trustedOnly");
  /** the working directory relative file names resolve against (cached by the JDK at start, like this) */
  private static final String CWD = new File("").getAbsolutePath();
  /** files that hold this process's memory or its pipes (the protocol's stdin, the result channel) */
  private static final Pattern PRIVATE_FILES = Pattern.compile(
      "^(/proc/(self|thread-self|\\d+)(/task/\\d+)?/(mem|fd|fdinfo|map_files|pagemap|environ|syscall|stack)(/.*)?"
          + "|/dev/(fd|stdin|stdout|stderr)(/.*)?|/proc/(kcore|kmem)|(pipe|socket|anon_inode):.*)$");

  /** loaders the harness made for its own tools (ecj): their code is the harness's, not code under test */
  private static final java.util.Set<ClassLoader> HARNESS_LOADERS = java.util.concurrent.ConcurrentHashMap.newKeySet();

  static boolean trustedLoader(ClassLoader l) {
    return l == null || l == PLATFORM || l == APP || HARNESS_LOADERS.contains(l);
  }

  /** Trusts a loader the harness made over a tool's jar (ecj writes the classes it compiles into the worker's files). */
  static ClassLoader harnessLoader(ClassLoader l) {
    HARNESS_LOADERS.add(l);
    return l;
  }

  /** Installs the policy (everything for trusted code) and the guard. Call once, before any project code loads. */
  @SuppressWarnings("removal")
  static void install() {
    Policy.setPolicy(new Policy() {
      @Override
      public boolean implies(ProtectionDomain domain, Permission perm) {
        return perm != TRUSTED_ONLY || trustedLoader(domain.getClassLoader());
      }
    });
    // link the guard's own lambdas and classes now: linking them under the guard would ask the guard again
    privateLookupOnStack();
    bootLoaderLookup();
    projectCodeAsks(TRUSTED_ONLY);
    askingProjectsSecurityManager();
    privateFile("/proc/self/mem");
    runnersFile("/proc/self/mem");
    System.setSecurityManager(new Guard());
  }

  /**
   * Whether package access to `pkg` (a package.access name) is refused to code under test. jdk.internal.*: always but
   * the JDK's annotation types (reading a JDK method's annotations loads them: ByteBuddy, behind Mockito, does it for
   * every mocked type). sun.*: only jdk.unsupported's sun.misc, which that module exports and opens to every module —
   * package access is the only barrier before Unsafe and Signal. jdk.unsupported's sun.reflect is exported too, for
   * serialization and mocking libraries (Objenesis builds instances through ReflectionFactory: it makes objects, it
   * reaches none that exist). Every other sun.* package is exported and opened to no module code under test lives in
   * (the runner never opens java.base/sun.*), so reflection may list its members but cannot use them; refusing more
   * fails tests for nothing — Jackson introspects the class of the stream it serializes (JacksonXml-6: a
   * sun.nio.ch.ChannelInputStream), a TimeZone is a sun.util.calendar.ZoneInfo. None reaches the harness: its objects
   * sit behind the repairlab.harness module.
   */
  static boolean packageRefused(String pkg) {
    if (pkg.startsWith("jdk.internal")) return !pkg.equals("jdk.internal.vm.annotation");
    return pkg.equals("sun.misc") || pkg.startsWith("sun.misc.");
  }

  /** set while the guard itself looks at the stack (which asks for class loaders: that must not ask the guard again) */
  private static final ThreadLocal<Boolean> DECIDING = new ThreadLocal<>();

  /** set while a project's own security manager decides (its own permission checks get the guard alone) */
  private static final ThreadLocal<Boolean> CONSULTING = new ThreadLocal<>();

  @Override
  public void checkPermission(Permission perm) {
    if (DECIDING.get() != null) return;
    DECIDING.set(Boolean.TRUE);
    String why;
    SecurityManager projects = null;
    try {
      // with DECIDING set, the harness's own file operations in it pass unchecked
      if (perm instanceof FilePermission && OUTPUTS_PENDING != null) makeOutputs(perm.getName());
      why = sensitive(perm);
      if (why != null && !projectCodeAsks(perm)) why = null;
      if (why == null) noteGlobalChange(perm);
      if (why == null && ProjectLoader.securitySlotsInUse && CONSULTING.get() == null) projects = askingProjectsSecurityManager();
    } finally {
      DECIDING.remove();
    }
    if (why != null) throw new SecurityException(why + " is blocked by the RepairLab runner");
    if (projects != null) {
      // after the guard, as a second manager would be asked: it may refuse more, never allow what the guard refused
      CONSULTING.set(Boolean.TRUE);
      try {
        projects.checkPermission(perm);
      } finally {
        CONSULTING.remove();
      }
    }
  }

  /**
   * Allowed, but noted when code under test asks: a JVM-wide setting a later validation on the same worker would meet.
   * The logging configuration is put back after the validation; the others cannot be (a provider instance may hold
   * the project's classes, a security property has no listing), so the worker that saw one is replaced (GlobalState).
   * Security providers matter most: the JCA asks the first provider that offers an algorithm, whoever installed it.
   */
  private static void noteGlobalChange(Permission perm) {
    String name = perm.getName();
    String what = null;
    if (perm instanceof java.util.logging.LoggingPermission) {
      if (projectCodeAsks(perm)) GlobalState.noteLoggingChanging();
      return;
    }
    if (perm instanceof java.security.SecurityPermission) {
      if (name.startsWith("insertProvider") || name.startsWith("removeProvider.") || name.startsWith("setProperty.")) what = name;
      // properties of an installed provider change what every lookup gets; those of a provider object a test made do not
      else if (name.startsWith("putProviderProperty.") || name.startsWith("removeProviderProperty.") || name.startsWith("clearProviderProperties.")) {
        String provider = name.substring(name.indexOf('.') + 1);
        if (java.security.Security.getProvider(provider) != null) what = name;
      }
    } else if (perm instanceof java.net.NetPermission) {
      if (name.equals("setDefaultAuthenticator") || name.equals("setProxySelector") || name.equals("setCookieHandler") || name.equals("setResponseCache")) what = name;
    } else if (perm instanceof javax.net.ssl.SSLPermission) {
      if (name.equals("setHostnameVerifier") || name.equals("setDefaultSSLContext")) what = name;
    }
    if (what != null && projectCodeAsks(perm)) GlobalState.noteChanged(what);
  }

  /**
   * The security manager that the code under test on this stack installed (ProjectSecurityManager), or null: the
   * nearest project frame's loader, or the ProjectLoader above it (a loader the test made), holds the slot.
   */
  private static SecurityManager askingProjectsSecurityManager() {
    return WALKER.walk(frames -> frames.map(f -> f.getDeclaringClass().getClassLoader())
        .filter(l -> !trustedLoader(l))
        .findFirst()
        .map(l -> {
          for (ClassLoader at = l; at != null && !trustedLoader(at); at = at.getParent()) {
            if (at instanceof ProjectLoader) return ((ProjectLoader) at).projectSecurityManager();
          }
          return null;
        })
        .orElse(null));
  }

  @Override
  public void checkPermission(Permission perm, Object context) {
    checkPermission(perm);
  }

  @Override
  public void checkExec(String cmd) {
    throw new SecurityException("Starting a process (" + cmd + ") is blocked by the RepairLab runner");
  }

  /** What a permission would allow, when code under test must not have it; null when it may. */
  private static String sensitive(Permission perm) {
    String name = perm.getName();
    if (perm instanceof RuntimePermission) {
      if (name.startsWith("exitVM")) return "System.exit(" + name.substring(Math.min(name.length(), 7)) + ") called by the code under test";
      if (name.startsWith("loadLibrary.")) return "Loading a native library (" + name.substring(12) + ")";
      switch (name) {
        case "setSecurityManager":
          // code under test installs its own through ProjectSecurityManager; the real call stays refused
          return "Replacing the security manager";
        case "readFileDescriptor":
          return "Reading the harness's file descriptors";
        case "shutdownHooks":
          return "Registering a shutdown hook";
        case "getClassLoader":
          return bootLoaderLookup() ? null : "Reaching the runner's class loaders";
        case "setFactory":
          return "Setting a JVM-wide factory";
        case "stopThread":
          return "Stopping another thread";
        case "inheritedChannel":
          return "Reaching the harness's inherited channel";
        default:
          if (name.startsWith("accessClassInPackage.") && packageRefused(name.substring(21))) return "Access to " + name.substring(21);
          return null;
      }
    }
    if (perm instanceof ReflectPermission && name.equals("suppressAccessChecks")) {
      // setAccessible on the project's own classes stays allowed; a private lookup in another loader's class (the
      // harness's, JUnit's) would let code define classes in the trusted loader
      return privateLookupOnStack() ? "A private lookup in the runner's classes" : null;
    }
    if (perm instanceof LinkPermission) return "Creating links";
    if (perm instanceof java.lang.management.ManagementPermission && name.equals("control")) return "Controlling the JVM (heap dumps, diagnostic commands)";
    if (perm instanceof java.security.SecurityPermission && name.equals("setPolicy")) return "Replacing the security policy";
    if (perm instanceof FilePermission) {
      if (privateFile(name)) return "Access to " + name;
      String actions = perm.getActions();
      if ((actions.contains("write") || actions.contains("delete")) && runnersFile(name)) return "Writing the runner's own files (" + name + ")";
      if ((actions.contains("write") || actions.contains("delete")) && testsData(name)) {
        // asked before every write, so the warm view knows the copy needs restoring (ProjectView.prepare)
        TESTS_DATA_TOUCHED = true;
        if (WALKER.walk(Guard::programWritesOnStack)) return "Program code writing the tests' data (" + name + ")";
      }
      return null;
    }
    return null;
  }

  /**
   * Whether the JDK asks `getClassLoader` for the boot (or platform) loader, which hands out no loader: a class by name
   * through the boot loader (`Class.forName(name, init, null)`: commons-lang's SerializationUtils resolving a JDK type)
   * or a proxy of JDK interfaces (`Proxy.checkProxyAccess`: EasyMock mocking a JDK interface). Java 8 and Defects4J's
   * ant run them without a security manager. What such a class can reach stays behind module encapsulation and the
   * package checks (sun.misc.Unsafe is still refused); the application loader (`getSystemClassLoader`, `getParent`,
   * `Class.forName(Module, …)`) is still refused: a class defined in it would count as trusted.
   */
  private static boolean bootLoaderLookup() {
    return WALKER.walk(s -> s.dropWhile(f -> f.getDeclaringClass() == Guard.class || f.getDeclaringClass() == SecurityManager.class)
        .findFirst()
        .map(f -> (f.getDeclaringClass() == Class.class && f.getMethodName().equals("forName") && f.getMethodType().parameterCount() == 3)
            || (f.getDeclaringClass() == java.lang.reflect.Proxy.class && f.getMethodName().equals("checkProxyAccess")))
        .orElse(false));
  }

  private static boolean privateLookupOnStack() {
    return WALKER.walk(s -> s.anyMatch(f -> f.getDeclaringClass() == java.lang.invoke.MethodHandles.class && f.getMethodName().equals("privateLookupIn")));
  }

  /** directories whose files are the harness's (compiled classes, its requests), with trailing '/'; see protectFiles */
  private static volatile String[] PROTECTED = {};
  /** places inside them that tests may write (the sandbox's HOME, a build step's output) */
  private static volatile String[] WRITABLE = {};

  /**
   * Makes `roots` the harness's to write: code under test may read them but neither write nor delete there, except
   * under `writable`. The warm worker's baseline classes are read from disk once per JVM and then remembered; a test
   * that rewrote a test class not yet read (CalcTest's expected value, as bytes) decided later validations on that
   * worker, and on the cold path a class run later in the same validation. Call before any project code runs.
   */
  static void protectFiles(java.util.List<java.nio.file.Path> roots, java.util.List<java.nio.file.Path> writable) {
    WRITABLE = writable.stream().map(Guard::asDirectory).toArray(String[]::new);
    PROTECTED = roots.stream().map(Guard::asDirectory).toArray(String[]::new);
  }

  private static String asDirectory(java.nio.file.Path p) {
    String abs = p.toAbsolutePath().normalize().toString();
    return abs.endsWith("/") ? abs : abs + "/";
  }

  /**
   * The layout's writable directories (layout.writableDirs), with trailing '/': the tests may write there, program code
   * may not — otherwise a patch could rewrite the expected data a test compares with, as the project copy's rows of
   * the threat table say. Set with protectFiles' `writable` (they are among them).
   */
  private static volatile String[] TESTS_DATA = {};
  /** which top-level classes are the program's (not the tests'): set per validation by the harness */
  private static volatile java.util.function.Predicate<String> PROGRAM_CLASS = name -> false;

  /** whether a write or delete under TESTS_DATA was asked for since the last takeTestsDataTouched (any caller) */
  private static volatile boolean TESTS_DATA_TOUCHED;

  static boolean takeTestsDataTouched() {
    boolean touched = TESTS_DATA_TOUCHED;
    TESTS_DATA_TOUCHED = false;
    return touched;
  }

  static void testsData(java.util.List<java.nio.file.Path> dirs, java.util.function.Predicate<String> programClass) {
    TESTS_DATA = dirs.stream().map(Guard::asDirectory).toArray(String[]::new);
    PROGRAM_CLASS = programClass;
  }

  private static boolean testsData(String name) {
    if (TESTS_DATA.length == 0) return false;
    File f = new File(name);
    String normal = java.nio.file.Path.of(f.isAbsolute() ? f.getPath() : new File(CWD, name).getPath()).normalize().toString();
    if (underTestsData(normal)) return true;
    // by where it leads too: /proc/self/cwd/src/test/data/… names the same file
    try {
      return underTestsData(new File(normal).getCanonicalPath());
    } catch (java.io.IOException e) {
      return true;
    }
  }

  private static boolean underTestsData(String path) {
    String asDir = path + "/";
    for (String d : TESTS_DATA) if (asDir.startsWith(d)) return true;
    return false;
  }

  /**
   * A program class (by its top-level class: its lambdas and nested classes count) on the stack of a write, unless
   * the write is only asked about: File.canWrite and Files.isWritable check the write permission without writing
   * (Cli's FileValidator asks it of the tests' data).
   */
  private static boolean programWritesOnStack(java.util.stream.Stream<StackWalker.StackFrame> frames) {
    boolean program = false;
    for (java.util.Iterator<StackWalker.StackFrame> it = frames.iterator(); it.hasNext();) {
      StackWalker.StackFrame f = it.next();
      Class<?> c = f.getDeclaringClass();
      if ((c == File.class && f.getMethodName().equals("canWrite")) || (c == java.nio.file.Files.class && f.getMethodName().equals("isWritable"))) return false;
      if (!trustedLoader(c.getClassLoader()) && PROGRAM_CLASS.test(ProjectLoader.topLevel(c.getName()))) program = true;
    }
    return program;
  }

  /** the warm view's output directories (ProjectView), as directories with trailing '/' */
  private static volatile String[] OUTPUTS = {};
  /** what puts this validation's classes behind them, until a file under them is first asked for (then null) */
  private static volatile Runnable OUTPUTS_PENDING;
  private static final Object OUTPUTS_LOCK = new Object();

  /**
   * Writes the validation's classes for the build's output directories only when something asks for a file there
   * (a test listing target/classes): most validations never do, and it means writing every class file of the project
   * (ProjectView.prepare). Every file access is asked of the guard first, so `make` runs before the access proceeds;
   * it runs with DECIDING set, so its own file operations are not asked again. A path that reaches the directories
   * by another name (/proc/self/cwd/…) finds them empty, never stale.
   */
  static void outputsOnFirstAccess(java.util.List<java.nio.file.Path> dirs, Runnable make) {
    OUTPUTS = dirs.stream().map(Guard::asDirectory).toArray(String[]::new);
    OUTPUTS_PENDING = make;
  }

  private static void makeOutputs(String name) {
    File f = new File(name);
    String normal = java.nio.file.Path.of(f.isAbsolute() ? f.getPath() : new File(CWD, name).getPath()).normalize().toString() + "/";
    boolean under = false;
    for (String d : OUTPUTS) under |= normal.startsWith(d);
    if (!under) return;
    synchronized (OUTPUTS_LOCK) {
      Runnable make = OUTPUTS_PENDING;
      if (make == null) return;
      make.run();
      OUTPUTS_PENDING = null;
    }
  }

  /** Whether writing or deleting `name` would change a file protectFiles gave the harness (by name or where it leads). */
  private static boolean runnersFile(String name) {
    if (PROTECTED.length == 0 || name.equals("<<ALL FILES>>")) return PROTECTED.length > 0;
    File f = new File(name);
    String normal = java.nio.file.Path.of(f.isAbsolute() ? f.getPath() : new File(CWD, name).getPath()).normalize().toString();
    if (protectedPath(normal)) return true;
    try {
      return protectedPath(new File(normal).getCanonicalPath());
    } catch (java.io.IOException e) {
      return true;
    }
  }

  private static boolean protectedPath(String path) {
    String asDir = path + "/";
    for (String w : WRITABLE) if (asDir.startsWith(w)) return false;
    for (String p : PROTECTED) if (asDir.startsWith(p)) return true;
    return false;
  }

  /** Whether a file name reaches this process's memory or file descriptors (by its name or where its links lead). */
  static boolean privateFile(String name) {
    if (name.equals("<<ALL FILES>>")) return false;
    File f = new File(name);
    String abs = f.isAbsolute() ? f.getPath() : new File(CWD, name).getPath();
    String normal = java.nio.file.Path.of(abs).normalize().toString();
    if (PRIVATE_FILES.matcher(normal).matches()) return true;
    if (!normal.startsWith("/proc") && !normal.startsWith("/dev") && !normal.startsWith("/tmp") && !normal.startsWith("/var/tmp")) return false;
    try {
      return PRIVATE_FILES.matcher(new File(normal).getCanonicalPath()).matches();
    } catch (java.io.IOException e) {
      return true;
    }
  }

  /** Code under test is on this thread's stack or in the access-control context it inherited. */
  @SuppressWarnings("removal")
  private static boolean projectCodeAsks(Permission perm) {
    if (WALKER.walk(Guard::projectFrameBeforePrivileged)) return true;
    try {
      AccessController.checkPermission(TRUSTED_ONLY);
      return false;
    } catch (AccessControlException e) {
      return true;
    }
  }

  /**
   * Whether a project frame is on the stack, read as AccessController reads it: a `doPrivileged` call ends the walk
   * after its caller (so the JDK's own privileged work — loading libnet for a socket — passes, while project code
   * calling doPrivileged itself is still seen).
   */
  private static boolean projectFrameBeforePrivileged(java.util.stream.Stream<StackWalker.StackFrame> frames) {
    boolean privileged = false;
    for (java.util.Iterator<StackWalker.StackFrame> it = frames.iterator(); it.hasNext();) {
      StackWalker.StackFrame f = it.next();
      Class<?> c = f.getDeclaringClass();
      if (c == AccessController.class) {
        privileged = true;
        continue;
      }
      if (!trustedLoader(c.getClassLoader())) return true;
      if (privileged) return false;
    }
    return false;
  }

  static void exit(int code) {
    Runtime.getRuntime().halt(code);
  }
}
