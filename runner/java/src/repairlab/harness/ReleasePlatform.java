package repairlab.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import javax.tools.FileObject;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;

/**
 * javac's `--release N`, resolved once per harness. javac resolves --release for every task anew: it opens ct.sym as
 * a new zip file system, and in a reused (pooled) context never closes it, so each compile also leaves a finalizable
 * object behind whose graph the next young collection copies (~30 ms and ~5 MB per compile of a small file, and GC
 * pauses of 100–250 ms). Here the platform's file manager is opened once and each task gets `-source`/`-target`
 * with a file manager that serves the platform's locations from it and everything else from the project's, which is
 * what --release sets up inside javac (its DelegatingJavaFileManager).
 *
 * Needs `--add-exports jdk.compiler/com.sun.tools.javac.platform=ALL-UNNAMED`; without it, tasks get plain --release.
 */
final class ReleasePlatform {
  /** options that select the release (with the platform: -source/-target; without: --release) */
  final List<String> options;
  private final JavaFileManager platformFiles;

  private ReleasePlatform(List<String> options, JavaFileManager platformFiles) {
    this.options = options;
    this.platformFiles = platformFiles;
  }

  static ReleasePlatform open(int release) {
    String name = String.valueOf(release);
    if (!Boolean.getBoolean("repairlab.plainRelease")) {
      try {
        com.sun.tools.javac.platform.PlatformDescription p = new com.sun.tools.javac.platform.JDKPlatformProvider().getPlatform(name, "");
        if (p != null && p.getAdditionalOptions().isEmpty()) {
          List<String> opts = new ArrayList<>(List.of("-source", p.getSourceVersion(), "-target", p.getTargetVersion()));
          // --release implies what -source alone warns about (no system modules / bootstrap class path set)
          opts.add("-Xlint:-options");
          return new ReleasePlatform(opts, p.getFileManager());
        }
      } catch (Throwable t) {
        // internal API not exported, or a JDK that does it differently: javac's own --release handling
      }
    }
    return new ReleasePlatform(List.of("--release", name), null);
  }

  /** `project` with the platform's locations (system modules / platform class path) served from the release. */
  JavaFileManager over(JavaFileManager project) {
    return platformFiles == null ? project : new Delegating(platformFiles, project);
  }

  /** Routes each location to the release's file manager when it has that location, else to the project's. */
  private static final class Delegating implements JavaFileManager {
    private final JavaFileManager release;
    private final JavaFileManager project;

    Delegating(JavaFileManager release, JavaFileManager project) {
      this.release = release;
      this.project = project;
    }

    private JavaFileManager at(Location location) {
      return release.hasLocation(location) ? release : project;
    }

    @Override
    public ClassLoader getClassLoader(Location location) {
      return at(location).getClassLoader(location);
    }

    @Override
    public Iterable<JavaFileObject> list(Location location, String packageName, Set<JavaFileObject.Kind> kinds, boolean recurse) throws IOException {
      return at(location).list(location, packageName, kinds, recurse);
    }

    @Override
    public String inferBinaryName(Location location, JavaFileObject file) {
      return at(location).inferBinaryName(location, file);
    }

    @Override
    public boolean isSameFile(FileObject a, FileObject b) {
      return project.isSameFile(a, b);
    }

    @Override
    public boolean handleOption(String current, java.util.Iterator<String> remaining) {
      return project.handleOption(current, remaining);
    }

    @Override
    public boolean hasLocation(Location location) {
      return release.hasLocation(location) || project.hasLocation(location);
    }

    @Override
    public JavaFileObject getJavaFileForInput(Location location, String className, JavaFileObject.Kind kind) throws IOException {
      return at(location).getJavaFileForInput(location, className, kind);
    }

    @Override
    public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind, FileObject sibling) throws IOException {
      return at(location).getJavaFileForOutput(location, className, kind, sibling);
    }

    @Override
    public FileObject getFileForInput(Location location, String packageName, String relativeName) throws IOException {
      return at(location).getFileForInput(location, packageName, relativeName);
    }

    @Override
    public FileObject getFileForOutput(Location location, String packageName, String relativeName, FileObject sibling) throws IOException {
      return at(location).getFileForOutput(location, packageName, relativeName, sibling);
    }

    @Override
    public void flush() throws IOException {
      project.flush();
    }

    /** The release's file manager outlives tasks; only the project's side is the task's to close. */
    @Override
    public void close() throws IOException {
      project.close();
    }

    @Override
    public Location getLocationForModule(Location location, String moduleName) throws IOException {
      return at(location).getLocationForModule(location, moduleName);
    }

    @Override
    public Location getLocationForModule(Location location, JavaFileObject fo) throws IOException {
      return at(location).getLocationForModule(location, fo);
    }

    @Override
    public <S> ServiceLoader<S> getServiceLoader(Location location, Class<S> service) throws IOException {
      return at(location).getServiceLoader(location, service);
    }

    @Override
    public String inferModuleName(Location location) throws IOException {
      return at(location).inferModuleName(location);
    }

    @Override
    public Iterable<Set<Location>> listLocationsForModules(Location location) throws IOException {
      return at(location).listLocationsForModules(location);
    }

    @Override
    public boolean contains(Location location, FileObject fo) throws IOException {
      return at(location).contains(location, fo);
    }

    @Override
    public int isSupportedOption(String option) {
      return project.isSupportedOption(option);
    }
  }
}
