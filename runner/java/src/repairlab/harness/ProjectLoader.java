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

/**
 * A fresh loader per validation for the project's classes: classes compiled in memory for this patch first,
 * then the baseline class directories. Static state therefore starts clean for every validation.
 */
final class ProjectLoader extends ClassLoader {
  static {
    registerAsParallelCapable();
  }

  private final Map<String, byte[]> memory;
  private final List<Path> classDirs;
  private final List<Path> resourceDirs;
  /** optional hook that rewrites class bytes (coverage instrumentation) */
  final java.util.function.BiFunction<String, byte[], byte[]> transform;

  ProjectLoader(ClassLoader parent, Map<String, byte[]> memory, List<Path> classDirs, List<Path> resourceDirs,
      java.util.function.BiFunction<String, byte[], byte[]> transform) {
    super("repairlab-project", parent);
    this.memory = memory;
    this.classDirs = classDirs;
    this.resourceDirs = resourceDirs;
    this.transform = transform;
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    byte[] bytes = memory.get(name);
    if (bytes == null) {
      String rel = name.replace('.', '/') + ".class";
      for (Path dir : classDirs) {
        Path p = dir.resolve(rel);
        if (Files.isRegularFile(p)) {
          try {
            bytes = Files.readAllBytes(p);
          } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
          }
          break;
        }
      }
    }
    if (bytes == null) throw new ClassNotFoundException(name);
    if (transform != null) bytes = transform.apply(name, bytes);
    return defineClass(name, bytes, 0, bytes.length);
  }

  private List<Path> resourceRoots() {
    List<Path> roots = new ArrayList<>(resourceDirs);
    roots.addAll(classDirs);
    return roots;
  }

  @Override
  protected URL findResource(String name) {
    for (Path dir : resourceRoots()) {
      Path p = dir.resolve(name);
      if (Files.exists(p)) {
        try {
          return p.toUri().toURL();
        } catch (MalformedURLException e) {
          return null;
        }
      }
    }
    return null;
  }

  @Override
  protected Enumeration<URL> findResources(String name) {
    List<URL> urls = new ArrayList<>();
    for (Path dir : resourceRoots()) {
      Path p = dir.resolve(name);
      if (Files.exists(p)) {
        try {
          urls.add(p.toUri().toURL());
        } catch (MalformedURLException e) {
          // skip
        }
      }
    }
    return Collections.enumeration(urls);
  }
}
