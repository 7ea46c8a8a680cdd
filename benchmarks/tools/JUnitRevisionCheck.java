// Compiles and tests checked-out revisions of a Maven-layout Java project in one JVM, with the real
// javac (javax.tools) and JUnit 4 (JUnitCore, one fresh class loader per revision). Used by the
// bundled-benchmark check (benchmarks/verify/direct-junit.ts) before the runner service takes over.
//
//   java -cp junit4.jar:hamcrest.jar JUnitRevisionCheck.java <release> <srcDir> <testDir> <revDir>...
//
// Prints one JSON object per line: {"rev":..,"compiled":true|false,"diagnostics":[..]} and
// {"rev":..,"test":"pkg.Class::method","status":"pass"|"fail","message":..}.
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

public class JUnitRevisionCheck {

    public static void main(String[] args) throws Exception {
        String release = args[0];
        String srcDir = args[1];
        String testDir = args[2];
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        for (int i = 3; i < args.length; i++) {
            checkRevision(javac, release, Paths.get(args[i]), srcDir, testDir);
        }
    }

    static void checkRevision(JavaCompiler javac, String release, Path rev, String srcDir, String testDir) throws Exception {
        Path out = rev.resolve(".repairlab-classes");
        Files.createDirectories(out);
        List<File> sources = javaFiles(rev.resolve(srcDir));
        List<File> tests = javaFiles(rev.resolve(testDir));
        List<File> all = new ArrayList<>(sources);
        all.addAll(tests);
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        boolean ok;
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, null)) {
            List<String> options = List.of("--release", release, "-d", out.toString(), "-cp",
                System.getProperty("java.class.path"), "-nowarn", "-encoding", "UTF-8");
            ok = javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjectsFromFiles(all)).call();
        }
        List<String> diags = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                diags.add(json(String.valueOf(d.getSource() == null ? "" : d.getSource().getName()) + ":" + d.getLineNumber() + ": " + d.getMessage(null)));
            }
        }
        System.out.println("{\"rev\":" + json(rev.toString()) + ",\"compiled\":" + ok + ",\"diagnostics\":[" + String.join(",", diags) + "]}");
        if (!ok) {
            return;
        }
        Path testRoot = rev.resolve(testDir);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()}, JUnitRevisionCheck.class.getClassLoader())) {
            for (File test : tests) {
                String name = testRoot.relativize(test.toPath()).toString().replace(File.separatorChar, '.').replaceAll("\\.java$", "");
                if (!name.endsWith("Test")) {
                    continue;
                }
                Class<?> cls = Class.forName(name, false, loader);
                runClass(rev, cls);
            }
        }
    }

    static void runClass(Path rev, Class<?> cls) {
        JUnitCore core = new JUnitCore();
        core.addListener(new RunListener() {
            private final java.util.Map<Description, Failure> failures = new java.util.HashMap<>();

            @Override
            public void testFailure(Failure failure) {
                failures.put(failure.getDescription(), failure);
            }

            @Override
            public void testFinished(Description d) {
                Failure f = failures.get(d);
                String id = d.getClassName() + "::" + d.getMethodName();
                String message = f == null ? "" : f.getException().getClass().getName() + ": " + f.getMessage();
                System.out.println("{\"rev\":" + json(rev.toString()) + ",\"test\":" + json(id) + ",\"status\":\""
                    + (f == null ? "pass" : "fail") + "\",\"message\":" + json(message) + "}");
            }
        });
        core.run(Request.aClass(cls));
    }

    static List<File> javaFiles(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return new ArrayList<>();
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.toString().endsWith(".java")).sorted().map(Path::toFile).collect(Collectors.toList());
        }
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : String.valueOf(s).toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
