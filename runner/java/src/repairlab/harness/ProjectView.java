package repairlab.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The tests' working directory on the warm path, when the layout gives the tests writable directories or the build's
 * output directories (layout.writableDirs, layout.outputDirs): the snapshot's tree is read-only and shared by every
 * worker of the snapshot, so the worker builds a view of it in its own directory. Every entry of the tree is a link
 * to it, except:
 *  - each writable directory, a copy of the tree's made afresh before every validation (restore), so nothing a test
 *    writes reaches a later validation in this JVM;
 *  - each output directory (Maven's target/classes, a build.xml's classes.dir), a link to the directory of the
 *    validation's class files (ProjectLoader.classFilesDir: program classes under main/, test classes under test/),
 *    written when a file there is first asked for in the validation (Guard.outputsOnFirstAccess).
 * The view lies in the worker's directory, which the guard keeps from code under test (Guard.protectFiles): the links,
 * and through the output links the class files, can be read but not written or replaced; only the writable copies
 * are left to the tests. The links into the tree lead to a read-only bind.
 */
final class ProjectView {
  final Path dir;
  private final Path root;
  private final List<String> writable;
  private final String classes;
  private final String testClasses;

  private ProjectView(Path dir, Path root, List<String> writable, String classes, String testClasses) {
    this.dir = dir;
    this.root = root;
    this.writable = writable;
    this.classes = classes;
    this.testClasses = testClasses;
  }

  /** The view a worker's config asks for (`view`, `writableDir`, `outputClasses`, `outputTestClasses`), or null. */
  static ProjectView of(Request config) {
    String view = config.get("view", null);
    if (view == null) return null;
    return new ProjectView(Path.of(view), Path.of(config.get("root", ".")), config.all("writableDir"), config.get("outputClasses", null),
        config.get("outputTestClasses", null));
  }

  /** The writable copies: the only places in the view the guard lets code under test write. */
  List<Path> writableDirs() {
    List<Path> out = new ArrayList<>();
    for (String w : writable) out.add(dir.resolve(w));
    return out;
  }

  private Set<String> special() {
    Set<String> s = new TreeSet<>(writable);
    if (classes != null) s.add(classes);
    if (testClasses != null) s.add(testClasses);
    return s;
  }

  /** Builds the links into the tree once, at the worker's start (before any project code runs). */
  void build() throws IOException {
    Set<String> special = special();
    Files.createDirectories(dir);
    linkEntries("", special);
    // directories leading to the special ones that the tree lacks (target/ before the first build)
    for (String s : special) {
      Path parent = dir.resolve(s).getParent();
      if (parent != null) Files.createDirectories(parent);
    }
  }

  private void linkEntries(String rel, Set<String> special) throws IOException {
    Path from = rel.isEmpty() ? root : root.resolve(rel);
    List<Path> entries;
    try (Stream<Path> s = Files.list(from)) {
      entries = s.sorted().toList();
    }
    for (Path e : entries) {
      String name = e.getFileName().toString();
      String r = rel.isEmpty() ? name : rel + "/" + name;
      if (special.contains(r)) continue;
      boolean leadsToSpecial = special.stream().anyMatch(sp -> sp.startsWith(r + "/"));
      if (leadsToSpecial && Files.isDirectory(e, LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectories(dir.resolve(r));
        linkEntries(r, special);
      } else {
        Files.createSymbolicLink(dir.resolve(r), e);
      }
    }
  }

  /**
   * Before a validation's tests: each writable directory becomes the tree's again (what the last validation wrote is
   * gone), and the output directories lead to this validation's classes. Runs on the harness's thread, with no
   * project code on the stack; a failure poisons the worker (the runner starts another).
   */
  void prepare(ProjectLoader loader) throws IOException {
    // Unchanged since the last restore (most validations write nothing): keep it — deleting and copying even a few
    // files cost 13–19 ms a restore on the loaded development machine (8 files in 8 folders; 200 files of 10 KB:
    // 105–130 ms), reading their inodes well under 1 ms. Changed: the guard saw a write or delete asked for there
    // (every write by path is), or the inodes say so (a write through a stream opened earlier asks nothing; ctime
    // alone can miss a write in the same clock tick as the restore, the guard's note cannot).
    boolean touched = Guard.takeTestsDataTouched();
    for (String w : writable) {
      Path at = dir.resolve(w);
      if (!touched && Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS) && signature(at).equals(restored.get(w))) continue;
      delete(at);
      Path pristine = root.resolve(w);
      if (Files.isDirectory(pristine, LinkOption.NOFOLLOW_LINKS)) copy(pristine, at);
      else Files.createDirectories(at);
      restored.put(w, signature(at));
    }
    // the restore's own writes
    Guard.takeTestsDataTouched();
    if (classes == null && testClasses == null) return;
    // until something asks for a file there, the output directories lead to an empty directory: the classes are
    // written on that first access (Guard.outputsOnFirstAccess), not for every validation
    Path empty = dir.resolveSibling("no-classes-yet");
    List<Path> links = new ArrayList<>();
    if (classes != null) links.add(dir.resolve(classes));
    if (testClasses != null) links.add(dir.resolve(testClasses));
    for (Path link : links) relink(link, empty);
    Guard.outputsOnFirstAccess(links, () -> {
      try {
        Path files = loader.classFilesDir();
        if (classes != null) relink(dir.resolve(classes), files.resolve("main"));
        if (testClasses != null) relink(dir.resolve(testClasses), files.resolve("test"));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("writing the validation's classes for the build's output directories (" + links + ")", e);
      }
    });
  }

  /** each writable copy's signature right after its last restore */
  private final java.util.Map<String, String> restored = new java.util.HashMap<>();

  /**
   * What tells whether anything changed in a writable copy: each entry's path, inode, size, mode and change time.
   * The change time (ctime) moves with every write, truncation, chmod, rename or link count change and cannot be set
   * by a program (unlike the modification time), and a file replaced by another gets another inode; so any write, by
   * a stream opened earlier too, shows — a check of the write permission could miss such a stream.
   */
  private static String signature(Path top) throws IOException {
    StringBuilder out = new StringBuilder();
    List<Path> all;
    try (Stream<Path> s = Files.walk(top)) {
      all = s.sorted().toList();
    } catch (IOException | java.io.UncheckedIOException unreadable) {
      // a directory a test locked itself out of: changed, whatever else
      return "unreadable";
    }
    for (Path p : all) {
      java.util.Map<String, Object> a = Files.readAttributes(p, "unix:ino,size,mode,ctime", LinkOption.NOFOLLOW_LINKS);
      out.append(top.relativize(p)).append('\0').append(a.get("ino")).append(' ').append(a.get("size")).append(' ').append(a.get("mode")).append(' ')
          .append(((java.nio.file.attribute.FileTime) a.get("ctime")).to(java.util.concurrent.TimeUnit.NANOSECONDS)).append('\n');
    }
    return out.toString();
  }

  private static void relink(Path link, Path target) throws IOException {
    Files.createDirectories(target);
    Files.deleteIfExists(link);
    Files.createSymbolicLink(link, target);
  }

  /** Copies a tree of the snapshot (regular files and directories; it holds nothing else) as files the tests own. */
  private static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    List<Path> entries;
    try (Stream<Path> s = Files.list(from)) {
      entries = s.toList();
    }
    for (Path e : entries) {
      Path t = to.resolve(e.getFileName().toString());
      if (Files.isDirectory(e, LinkOption.NOFOLLOW_LINKS)) copy(e, t);
      else if (Files.isRegularFile(e, LinkOption.NOFOLLOW_LINKS)) Files.copy(e, t);
    }
  }

  private static final Set<PosixFilePermission> OWNER_ALL = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
      PosixFilePermission.OWNER_EXECUTE);

  /**
   * Deletes what a validation left in a writable copy, never following a link out of it. A test may have taken its
   * own permissions away from a directory it made (File.setReadable(false)): the worker owns the copy, so it gives
   * them back before listing.
   */
  static void delete(Path p) throws IOException {
    if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) return;
    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
      Files.setPosixFilePermissions(p, OWNER_ALL);
      List<Path> entries;
      try (Stream<Path> s = Files.list(p)) {
        entries = s.toList();
      }
      for (Path e : entries) delete(e);
    }
    Files.delete(p);
  }
}
