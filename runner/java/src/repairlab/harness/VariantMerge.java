package repairlab.harness;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.lang.model.element.Modifier;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/**
 * The patch schema behind batched write_fix variants. Variants of one fix usually differ only inside method bodies of
 * one file. Such variants are merged into ONE compilation unit — the first variant, plus, for every other body a
 * variant proposes, a private copy of the method named {@code rl$variant$<site>$<copy>} — so javac runs once for the
 * whole batch. {@link VariantSpecializer} then rebuilds each variant's classes from the merged ones (the copy's code
 * moved into the real method, all copies removed, line numbers mapped back to the variant's own file), so tests see
 * exactly the variant's behaviour, method names and line numbers.
 *
 * Merging is refused (the variants are validated one by one) when files other than one .java file differ, when the
 * text outside method bodies differs beyond comments and spacing, or when a differing body is a constructor's, sits in
 * an interface or an anonymous/local class, or holds a lambda, method reference, class body or switch (constructs
 * whose compiler-generated names depend on their position in the file).
 */
final class VariantMerge {
  static final String COPY_PREFIX = "rl$variant$";

  /** One method with a body, in document order. */
  private static final class Method {
    String name;
    boolean constructor;
    boolean isStatic;
    boolean mergeableHere;
    boolean bodyUnsafe;
    int bodyStart;
    int bodyEnd;
    int bodyStartLine;
    int bodyEndLine;
    /** position of the closing brace of the enclosing class */
    int classClose;
    String header;

    Method copy() {
      Method m = new Method();
      m.name = name;
      m.constructor = constructor;
      m.isStatic = isStatic;
      m.mergeableHere = mergeableHere;
      m.bodyUnsafe = bodyUnsafe;
      m.bodyStart = bodyStart;
      m.bodyEnd = bodyEnd;
      m.bodyStartLine = bodyStartLine;
      m.bodyEndLine = bodyEndLine;
      m.classClose = classClose;
      m.header = header;
      return m;
    }
  }

  private static final class Parsed {
    final String source;
    final List<Method> methods = new ArrayList<>();
    /** where the last top-level declaration ends (what follows can only be comments and spacing) */
    int declarationsEnd = -1;
    boolean ok = true;
    /** skeleton(), computed once (a batch may be planned again after a failed merged compile) */
    String skeleton;
    /** the structure was derived from the reference's (Splice.apply), not parsed whole */
    boolean spliced;

    Parsed(String source) {
      this.source = source;
    }
  }

  /** The merged unit and how to get each variant back from it. */
  static final class Plan {
    final String file;
    final String merged;
    /** batch indices of the merged variants; the first is the base */
    final List<Integer> members;
    /** batch index → (copy method name → method it stands for) */
    final Map<Integer, Map<String, String>> transplants = new HashMap<>();
    /** batch index → merged line → the variant's own line (0 where the line is not the variant's) */
    final Map<Integer, int[]> lineMaps = new HashMap<>();
    /** merged line → the batch indices whose code it is (null: shared by all) */
    private final List<Set<Integer>> lineOwners;

    Plan(String file, String merged, List<Integer> members, List<Set<Integer>> lineOwners) {
      this.file = file;
      this.merged = merged;
      this.members = members;
      this.lineOwners = lineOwners;
    }

    /** The batch indices whose code a merged line is; null when every variant shares it. */
    Set<Integer> ownersOf(int line) {
      return line > 0 && line < lineOwners.size() ? lineOwners.get(line) : null;
    }

    /**
     * What variant v's own compile reports, read off a failed merged compile that implicates it — or null where that
     * is not certain, and v is compiled alone instead. Certain when every diagnostic of the merged compile lies in
     * variants' own lines (none in shared code, whose position relative to v's copy differs from v's file), v has an
     * error, none of v's messages names a copy method, each of v's diagnostic lines reads as the same text in v's own
     * file (so columns hold too), v's diagnostics come in the order of its lines, and javac's list was not cut at its
     * 100 entries. A method body is attributed and
     * flow-checked on its own, so v's diagnostics, moved to v's lines, are those of v alone.
     */
    List<Map<String, Object>> ownDiagnostics(int v, List<Map<String, Object>> diagnostics, String variantSource) {
      int[] map = lineMaps.get(v);
      if (map == null || diagnostics.size() >= 100) return null;
      String[] mergedLines = merged.split("\n", -1);
      String[] ownLines = variantSource.split("\n", -1);
      List<Map<String, Object>> own = new ArrayList<>();
      boolean error = false;
      int lastLine = 0;
      for (Map<String, Object> d : diagnostics) {
        if (!file.equals(d.get("file"))) return null;
        int line = (Integer) d.get("line");
        Set<Integer> owners = ownersOf(line);
        if (owners == null) return null;
        if (!owners.contains(v)) continue;
        if (String.valueOf(d.get("message")).contains(COPY_PREFIX)) return null;
        int at = line < map.length ? map[line] : 0;
        if (at <= 0 || line > mergedLines.length || at > ownLines.length || !mergedLines[line - 1].equals(ownLines[at - 1])) return null;
        // copies sit at the end of their class: diagnostics out of v's line order may come in another order alone
        if (at < lastLine) return null;
        lastLine = at;
        Map<String, Object> moved = new LinkedHashMap<>(d);
        moved.put("line", at);
        own.add(moved);
        error |= "error".equals(d.get("kind"));
      }
      return error ? own : null;
    }

    /**
     * The variants a failed merged compile implicates: those whose own code holds an error line. Null when an error
     * lies in code every variant shares (or outside the merged file), so no variant can be cleared.
     */
    Set<Integer> implicated(List<Map<String, Object>> diagnostics) {
      Set<Integer> out = new TreeSet<>();
      for (Map<String, Object> d : diagnostics) {
        if (!"error".equals(d.get("kind"))) continue;
        if (!file.equals(d.get("file"))) return null;
        int line = (Integer) d.get("line");
        Set<Integer> owners = line > 0 && line < lineOwners.size() ? lineOwners.get(line) : null;
        if (owners == null) return null;
        out.addAll(owners);
      }
      return out.isEmpty() ? null : out;
    }
  }

  private VariantMerge() {}

  private static final JavaCompiler COMPILER = ToolProvider.getSystemJavaCompiler();

  /**
   * Plans a merge of `sources` (batch index → content of `file`). Returns null when fewer than two variants can be
   * merged; `left` receives the indices that must be validated one by one.
   */
  static Plan plan(String file, Map<Integer, String> sources, Set<Integer> left) {
    return plan(file, parse(sources, null), sources.keySet(), left);
  }

  /**
   * Parsed variants, to plan several times (after a failed merged compile) without parsing again.
   *
   * Variants are read against a reference: the file as the snapshot has it (`base`, parsed once per worker), else the
   * first variant. Variants of one fix usually differ from it in one method body, and perhaps in comments after the
   * last declaration: for those only the new body (as the body of a method in a throwaway class) and the new
   * trailing text are parsed, and the reference's structure is reused, shifted. That is exact when the new body parses
   * as one complete block and the trailing text as nothing but comments: the text before the body is the
   * reference's (so the body starts as code), the body closes itself (no string, comment or brace left open), and the
   * text between the body and the trailing text is the reference's too. Any other variant is parsed whole.
   */
  static Map<Integer, Object> parse(Map<Integer, String> sources, String base) {
    if (sources.isEmpty()) return new LinkedHashMap<>();
    Parsed reference = base == null ? null : parsedBase(base);
    if (reference == null || !reference.ok) {
      Integer firstKey = sources.keySet().iterator().next();
      reference = parseAll(Map.of(firstKey, sources.get(firstKey))).get(firstKey);
    }
    Map<Integer, Splice> splices = new LinkedHashMap<>();
    Map<Integer, Parsed> derived = new HashMap<>();
    for (Map.Entry<Integer, String> e : sources.entrySet()) {
      if (e.getValue().equals(reference.source)) {
        derived.put(e.getKey(), reference);
        continue;
      }
      Splice sp = reference.ok ? Splice.of(reference, e.getValue()) : null;
      if (sp != null) splices.put(e.getKey(), sp);
    }
    derived.putAll(checkSplices(reference, splices));
    Map<Integer, String> whole = new LinkedHashMap<>();
    for (Map.Entry<Integer, String> e : sources.entrySet()) if (!derived.containsKey(e.getKey())) whole.put(e.getKey(), e.getValue());
    Map<Integer, Parsed> parsedWhole = whole.isEmpty() ? Map.of() : parseAll(whole);
    Map<Integer, Object> out = new LinkedHashMap<>();
    for (Integer k : sources.keySet()) out.put(k, derived.containsKey(k) ? derived.get(k) : parsedWhole.get(k));
    return out;
  }

  /** The snapshot's versions of files variants were read against, by content (a worker sees few). */
  private static final Map<String, Parsed> BASES = new LinkedHashMap<>(8, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Parsed> eldest) {
      return size() > 4;
    }
  };

  private static synchronized Parsed parsedBase(String text) {
    return BASES.computeIfAbsent(text, t -> parseAll(Map.of(0, t)).get(0));
  }

  /** How many of parse()'s variants were parsed only where they differ from the reference (reported for the benchmark). */
  static long partlyParsed(Map<Integer, Object> parsed) {
    return parsed.values().stream().filter(p -> p instanceof Parsed && ((Parsed) p).spliced).count();
  }

  /** A variant that is the reference with one method body changed and/or the text after the last declaration. */
  private static final class Splice {
    final String text;
    /** index (in the reference's method list) of the method whose body changed, or -1 */
    final int site;
    /** that method's body in the variant, braces included (null when no body changed) */
    final String body;
    /** the text after the last declaration, when it changed (else null) */
    final String tail;

    private Splice(String text, int site, String body, String tail) {
      this.text = text;
      this.site = site;
      this.body = body;
      this.tail = tail;
    }

    /** Null when the variant also differs elsewhere, or holds a lone carriage return (see hasLoneCr). */
    static Splice of(Parsed reference, String text) {
      if (hasLoneCr(text)) return null;
      String f = reference.source;
      int max = Math.min(f.length(), text.length());
      int prefix = 0;
      while (prefix < max && f.charAt(prefix) == text.charAt(prefix)) prefix++;
      int suffix = 0;
      while (suffix < max - prefix && f.charAt(f.length() - 1 - suffix) == text.charAt(text.length() - 1 - suffix)) suffix++;
      int endInReference = f.length() - suffix; // the changed region of the reference is [prefix, endInReference)
      int declarationsEnd = reference.declarationsEnd;
      if (declarationsEnd < 0) return null;
      if (prefix >= declarationsEnd) return new Splice(text, -1, null, text.substring(declarationsEnd));
      for (int site = 0; site < reference.methods.size(); site++) {
        Method m = reference.methods.get(site);
        // the change starts strictly inside the body: its opening brace is in the common prefix
        if (prefix <= m.bodyStart || prefix > m.bodyEnd - 1) continue;
        if (endInReference <= m.bodyEnd - 1) {
          // …and ends strictly inside it: the closing brace is in the common suffix
          return new Splice(text, site, text.substring(m.bodyStart, m.bodyEnd + text.length() - f.length()), null);
        }
        // …or the text from the body's closing brace to the last declaration's end reappears unchanged, followed by
        // a new tail (the last occurrence: a tail holds only comments)
        String between = f.substring(m.bodyEnd - 1, declarationsEnd);
        int at = text.lastIndexOf(between);
        if (at < prefix) return null;
        return new Splice(text, site, text.substring(m.bodyStart, at + 1), text.substring(at + between.length()));
      }
      return null;
    }

    /** The variant's structure: the reference's, with the changed body's end and everything after it moved. */
    Parsed apply(Parsed reference, boolean bodyUnsafe) {
      Parsed p = new Parsed(text);
      p.spliced = true;
      Method changed = site < 0 ? null : reference.methods.get(site);
      int delta = changed == null ? 0 : body.length() - (changed.bodyEnd - changed.bodyStart);
      int lineDelta = changed == null ? 0 : newlines(body) - newlines(reference.source.substring(changed.bodyStart, changed.bodyEnd));
      for (Method fm : reference.methods) {
        Method m = fm.copy();
        if (fm == changed) {
          m.bodyEnd += delta;
          m.bodyEndLine += lineDelta;
          m.bodyUnsafe = bodyUnsafe;
        } else if (changed != null && fm.bodyStart >= changed.bodyEnd) {
          m.bodyStart += delta;
          m.bodyEnd += delta;
          m.bodyStartLine += lineDelta;
          m.bodyEndLine += lineDelta;
        }
        if (changed != null && fm.classClose >= changed.bodyEnd) m.classClose += delta;
        p.methods.add(m);
      }
      p.declarationsEnd = reference.declarationsEnd + delta;
      // with the trailing text unchanged, the text outside bodies is the reference's; else it is computed afresh
      if (tail == null) p.skeleton = skeleton(reference);
      return p;
    }

    private static int newlines(String s) {
      int n = 0;
      for (int i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
      return n;
    }
  }

  private static final String BODY_HOST = "class RepairLabBodyHost { void body() ";

  /**
   * Parses every splice's new body (as the body of a method in a throwaway class) and new tail, all in one javac
   * task, and answers the structure of each variant whose body is one complete block and nothing more and whose tail
   * is nothing but comments and spacing. Variants missing from the answer must be parsed whole.
   */
  private static Map<Integer, Parsed> checkSplices(Parsed reference, Map<Integer, Splice> splices) {
    Map<Integer, Parsed> out = new HashMap<>();
    if (splices.isEmpty()) return out;
    List<Unit> units = new ArrayList<>();
    List<Integer> owners = new ArrayList<>(); // unit → variant
    List<Boolean> isTail = new ArrayList<>();
    for (Map.Entry<Integer, Splice> e : splices.entrySet()) {
      Splice sp = e.getValue();
      if (sp.body != null) {
        units.add(new Unit(units.size(), BODY_HOST + sp.body + "\n}\n"));
        owners.add(e.getKey());
        isTail.add(false);
      }
      if (sp.tail != null) {
        units.add(new Unit(units.size(), sp.tail));
        owners.add(e.getKey());
        isTail.add(true);
      }
    }
    Map<Integer, Boolean> unsafeBody = new HashMap<>();
    Set<Integer> failed = new java.util.HashSet<>();
    withParser(units, (task, diags) -> {
      Iterable<? extends CompilationUnitTree> trees;
      try {
        trees = task.parse();
      } catch (java.io.IOException | RuntimeException e) {
        failed.addAll(owners);
        return null;
      }
      Set<URI> broken = brokenUnits(diags);
      SourcePositions positions = Trees.instance(task).getSourcePositions();
      int k = 0;
      for (CompilationUnitTree cu : trees) {
        int unit = k++;
        Integer key = owners.get(unit);
        if (broken.contains(units.get(unit).toUri())) {
          failed.add(key);
        } else if (isTail.get(unit)) {
          // nothing but comments and spacing (a stray semicolon would be a declaration)
          if (!cu.getTypeDecls().isEmpty() || !cu.getImports().isEmpty() || cu.getPackage() != null || cu.getModule() != null) failed.add(key);
        } else {
          Boolean unsafe = soleBody(cu, positions, splices.get(key).body.length());
          if (unsafe == null) failed.add(key);
          else unsafeBody.put(key, unsafe);
        }
      }
      return null;
    });
    for (Map.Entry<Integer, Splice> e : splices.entrySet()) {
      if (failed.contains(e.getKey())) continue;
      out.put(e.getKey(), e.getValue().apply(reference, unsafeBody.getOrDefault(e.getKey(), false)));
    }
    return out;
  }

  /** For a host unit whose one method's body is exactly the `length` characters after BODY_HOST: whether that body is unsafe to copy; else null. */
  private static Boolean soleBody(CompilationUnitTree cu, SourcePositions positions, int length) {
    if (cu.getTypeDecls().size() != 1 || !(cu.getTypeDecls().get(0) instanceof ClassTree)) return null;
    ClassTree host = (ClassTree) cu.getTypeDecls().get(0);
    if (host.getMembers().size() != 1 || !(host.getMembers().get(0) instanceof MethodTree)) return null;
    BlockTree body = ((MethodTree) host.getMembers().get(0)).getBody();
    if (body == null) return null;
    if (positions.getStartPosition(cu, body) != BODY_HOST.length() || positions.getEndPosition(cu, body) != BODY_HOST.length() + length) return null;
    return unsafe(body);
  }

  /** Plans a merge of the variants `among` of what parse() returned. */
  static Plan plan(String file, Map<Integer, Object> parsedVariants, Set<Integer> among, Set<Integer> left) {
    Map<Integer, Parsed> parsed = new LinkedHashMap<>();
    for (Integer i : among) parsed.put(i, (Parsed) parsedVariants.get(i));
    Map<Integer, Parsed> sources = parsed;
    // group by skeleton (the text outside method bodies, comments and spacing ignored); the largest group merges
    Map<String, List<Integer>> groups = new LinkedHashMap<>();
    for (Map.Entry<Integer, Parsed> e : parsed.entrySet()) {
      if (!e.getValue().ok || hasLoneCr(e.getValue().source)) continue;
      groups.computeIfAbsent(skeleton(e.getValue()), k -> new ArrayList<>()).add(e.getKey());
    }
    List<Integer> group = null;
    for (List<Integer> g : groups.values()) if (group == null || g.size() > group.size()) group = g;
    if (group == null || group.size() < 2) {
      left.addAll(sources.keySet());
      return null;
    }
    for (Integer i : sources.keySet()) if (!group.contains(i)) left.add(i);
    // variants whose differing bodies cannot be copied (constructor, lambda, local class…) are validated alone
    Parsed base = parsed.get(group.get(0));
    List<Integer> mergeable = new ArrayList<>();
    for (int v : group) {
      boolean ok = true;
      Parsed p = parsed.get(v);
      for (int site = 0; site < base.methods.size() && ok; site++) {
        Method bm = base.methods.get(site);
        Method m = p.methods.get(site);
        if (sameBody(base, bm, p, m)) continue;
        ok = !bm.constructor && bm.mergeableHere && !bm.bodyUnsafe && !m.bodyUnsafe && bm.header != null;
      }
      if (ok) mergeable.add(v);
      else left.add(v);
    }
    if (mergeable.size() < 2) {
      left.addAll(mergeable);
      return null;
    }
    Plan plan = build(file, mergeable, parsed);
    if (plan == null) left.addAll(mergeable);
    return plan;
  }

  private static Plan build(String file, List<Integer> group, Map<Integer, Parsed> parsed) {
    Parsed base = parsed.get(group.get(0));
    int methods = base.methods.size();
    // per method site: which body each variant uses (0 = the base's own), and the distinct other bodies
    Map<Integer, Map<Integer, Integer>> useCopy = new HashMap<>(); // variant → site → copy id
    List<int[]> copySite = new ArrayList<>(); // copy id → {site, variant that first proposed it}
    for (int site = 0; site < methods; site++) {
      Method bm = base.methods.get(site);
      Map<String, Integer> copies = new HashMap<>();
      for (int v : group) {
        Parsed p = parsed.get(v);
        Method m = p.methods.get(site);
        if (sameBody(base, bm, p, m)) continue;
        String b = body(p, m);
        if (bm.constructor || !bm.mergeableHere || bm.bodyUnsafe || m.bodyUnsafe || bm.header == null) return null;
        Integer id = copies.get(b);
        if (id == null) {
          id = copySite.size();
          copies.put(b, id);
          copySite.add(new int[] {site, v});
        }
        useCopy.computeIfAbsent(v, k -> new HashMap<>()).put(site, id);
      }
    }
    // copies go right before the closing brace of their method's class, in site order
    Map<Integer, List<Integer>> copiesAt = new HashMap<>(); // classClose position → copy ids
    for (int id = 0; id < copySite.size(); id++) {
      copiesAt.computeIfAbsent(base.methods.get(copySite.get(id)[0]).classClose, k -> new ArrayList<>()).add(id);
    }
    List<Integer> positions = new ArrayList<>(new TreeSet<>(copiesAt.keySet()));

    // the merged text, line by line, with the origin of every line: a base line, or (copy, line within it)
    StringBuilder merged = new StringBuilder();
    List<int[]> origin = new ArrayList<>(); // index = merged line - 1; {baseLine} or {-1 - copy, offset}
    int[] baseLines = lineStarts(base.source);
    int cursor = 0;
    origin.add(new int[] {1});
    for (int pos : positions) {
      appendBase(merged, origin, base.source, cursor, pos, baseLines);
      for (int id : copiesAt.get(pos)) {
        int site = copySite.get(id)[0];
        Parsed proposer = parsed.get(copySite.get(id)[1]);
        Method bm = base.methods.get(site);
        String text = bm.header.replace("\u0000", copyName(site, id)) + " " + body(proposer, proposer.methods.get(site));
        merged.append('\n');
        String[] lines = text.split("\n", -1);
        for (int k = 0; k < lines.length; k++) {
          origin.add(new int[] {-1 - id, k});
          merged.append(lines[k]);
          if (k < lines.length - 1) merged.append('\n');
        }
      }
      merged.append('\n');
      origin.add(new int[] {lineOf(baseLines, pos)});
      cursor = pos;
    }
    appendBase(merged, origin, base.source, cursor, base.source.length(), baseLines);

    Plan plan = new Plan(file, merged.toString(), new ArrayList<>(group), new ArrayList<>());
    // who owns each merged line: copy lines belong to the variants using the copy; lines of a base body that some
    // variant replaces belong to the variants keeping it; everything else is shared (null)
    plan.lineOwners.add(null);
    // owner sets are shared between lines (they are only read)
    List<Set<Integer>> copyOwners = new ArrayList<>();
    for (int id = 0; id < copySite.size(); id++) {
      Set<Integer> owners = new TreeSet<>();
      for (int v : group) if (Integer.valueOf(id).equals(useCopy.getOrDefault(v, Map.of()).get(copySite.get(id)[0]))) owners.add(v);
      copyOwners.add(owners);
    }
    List<Set<Integer>> keepers = new ArrayList<>(); // per site: the variants keeping the base's body, if some replace it
    for (int site = 0; site < methods; site++) {
      Set<Integer> keep = null;
      for (Map<Integer, Integer> m : useCopy.values()) {
        if (!m.containsKey(site)) continue;
        keep = new TreeSet<>();
        for (int v : group) if (!useCopy.getOrDefault(v, Map.of()).containsKey(site)) keep.add(v);
        break;
      }
      keepers.add(keep);
    }
    for (int[] o : origin) {
      Set<Integer> owners = null;
      if (o[0] < 0) {
        owners = copyOwners.get(-1 - o[0]);
      } else {
        for (int site = 0; site < methods; site++) {
          Method bm = base.methods.get(site);
          if (keepers.get(site) != null && o[0] >= bm.bodyStartLine && o[0] <= bm.bodyEndLine) owners = keepers.get(site);
        }
      }
      plan.lineOwners.add(owners);
    }
    for (int v : group) {
      Parsed p = parsed.get(v);
      Map<Integer, Integer> uses = useCopy.getOrDefault(v, Map.of());
      Map<String, String> moves = new HashMap<>();
      // per replaced site: where the base body ends and how many lines longer the variant's body is
      int[] ends = new int[uses.size()];
      int[] deltas = new int[uses.size()];
      int k = 0;
      for (Map.Entry<Integer, Integer> u : uses.entrySet()) {
        moves.put(copyName(u.getKey(), u.getValue()), base.methods.get(u.getKey()).name);
        Method bm = base.methods.get(u.getKey());
        Method vm = p.methods.get(u.getKey());
        ends[k] = bm.bodyEndLine;
        deltas[k++] = (vm.bodyEndLine - vm.bodyStartLine) - (bm.bodyEndLine - bm.bodyStartLine);
      }
      plan.transplants.put(v, moves);
      int[] map = new int[origin.size() + 1];
      for (int line = 1; line <= origin.size(); line++) {
        int[] o = origin.get(line - 1);
        if (o[0] < 0) {
          int id = -1 - o[0];
          int site = copySite.get(id)[0];
          Integer used = uses.get(site);
          if (used != null && used == id) map[line] = p.methods.get(site).bodyStartLine + o[1];
        } else {
          // a shared line moves by how much longer or shorter this variant's earlier replaced bodies are
          int shift = 0;
          for (int j = 0; j < ends.length; j++) if (o[0] >= ends[j]) shift += deltas[j];
          map[line] = o[0] + shift;
        }
      }
      plan.lineMaps.put(v, map);
    }
    return plan;
  }

  static String copyName(int site, int copy) {
    return COPY_PREFIX + site + "$" + copy;
  }

  private static void appendBase(StringBuilder merged, List<int[]> origin, String source, int from, int to, int[] lines) {
    for (int i = from; i < to; i++) {
      char c = source.charAt(i);
      merged.append(c);
      if (c == '\n') origin.add(new int[] {lineOf(lines, i + 1)});
    }
  }

  private static boolean sameBody(Parsed a, Method am, Parsed b, Method bm) {
    int n = am.bodyEnd - am.bodyStart;
    return n == bm.bodyEnd - bm.bodyStart && a.source.regionMatches(am.bodyStart, b.source, bm.bodyStart, n);
  }

  private static String body(Parsed p, Method m) {
    return p.source.substring(m.bodyStart, m.bodyEnd);
  }

  /** The text outside method bodies with comments blanked and spacing collapsed (line breaks kept). */
  private static String skeleton(Parsed p) {
    if (p.skeleton == null) p.skeleton = computeSkeleton(p);
    return p.skeleton;
  }

  private static String computeSkeleton(Parsed p) {
    StringBuilder b = new StringBuilder();
    int cursor = 0;
    for (Method m : p.methods) {
      b.append(p.source, cursor, m.bodyStart).append("{}");
      cursor = m.bodyEnd;
    }
    b.append(p.source.substring(cursor));
    return normalise(blankComments(b.toString()));
  }

  /** Each line trimmed (String.trim) with runs of spaces, tabs, form feeds and CRs inside collapsed to one space. */
  static String normalise(String s) {
    StringBuilder out = new StringBuilder(s.length());
    int n = s.length();
    int lineStart = 0;
    while (lineStart <= n) {
      int lineEnd = s.indexOf('\n', lineStart);
      if (lineEnd < 0) lineEnd = n;
      int from = lineStart;
      int to = lineEnd;
      while (from < to && s.charAt(from) <= ' ') from++;
      while (to > from && s.charAt(to - 1) <= ' ') to--;
      for (int i = from; i < to; i++) {
        char c = s.charAt(i);
        if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
          while (i + 1 < to && isRunSpace(s.charAt(i + 1))) i++;
          out.append(' ');
        } else {
          out.append(c);
        }
      }
      out.append('\n');
      lineStart = lineEnd + 1;
    }
    // blank lines after the last code move nothing
    int end = out.length();
    while (end > 0 && out.charAt(end - 1) == '\n') end--;
    return out.substring(0, end);
  }

  /**
   * A carriage return not followed by a line feed: javac counts it as a line break, the line bookkeeping here
   * (which counts line feeds) does not, so such a variant is validated alone.
   */
  static boolean hasLoneCr(String s) {
    for (int i = s.indexOf('\r'); i >= 0; i = s.indexOf('\r', i + 1)) if (i + 1 >= s.length() || s.charAt(i + 1) != '\n') return true;
    return false;
  }

  private static boolean isRunSpace(char c) {
    return c == ' ' || c == '\t' || c == '\f' || c == '\r';
  }

  /** Comments replaced by spaces (line breaks kept), string, char and text-block literals left alone. */
  static String blankComments(String s) {
    StringBuilder b = new StringBuilder(s);
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c == '"' && s.startsWith("\"\"\"", i)) {
        int end = s.indexOf("\"\"\"", i + 3);
        while (end > 0 && s.charAt(end - 1) == '\\') end = s.indexOf("\"\"\"", end + 1);
        i = end < 0 ? n : end + 2;
      } else if (c == '"' || c == '\'') {
        for (i++; i < n && s.charAt(i) != c && s.charAt(i) != '\n'; i++) if (s.charAt(i) == '\\') i++;
      } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
        for (; i < n && s.charAt(i) != '\n'; i++) b.setCharAt(i, ' ');
      } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
        int end = s.indexOf("*/", i + 2);
        end = end < 0 ? n : end + 2;
        for (; i < end; i++) if (s.charAt(i) != '\n') b.setCharAt(i, ' ');
        i--;
      }
    }
    return b.toString();
  }

  /** 1-based line of a position (a position at the very end counts as on the last line + its own). */
  private static int lineOf(int[] starts, int pos) {
    int lo = 0;
    int hi = starts.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (starts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  private static int[] lineStarts(String s) {
    int[] out = new int[16];
    int n = 0;
    out[n++] = 0;
    for (int i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) {
      if (n == out.length) out = java.util.Arrays.copyOf(out, n * 2);
      out[n++] = i + 1;
    }
    return java.util.Arrays.copyOf(out, n);
  }


  // ---- parsing: every variant in one javac parse (parsing only, so equal class names do not clash) ----

  private static final class Unit extends SimpleJavaFileObject {
    final String text;

    Unit(int index, String text) {
      super(URI.create("string:///variant" + index + "/Unit.java"), JavaFileObject.Kind.SOURCE);
      this.text = text;
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return text;
    }
  }

  /** Parse-only tasks reuse one javac context (a fresh task sets up a context and a file manager each time, most of a small parse). */
  private static final com.sun.tools.javac.api.JavacTaskPool PARSER_POOL = ReusedJavac.newPool();
  private static final javax.tools.StandardJavaFileManager PARSER_FILES = COMPILER.getStandardFileManager(null, Locale.ROOT, java.nio.charset.StandardCharsets.UTF_8);
  private static final ReusedJavac.Diagnostics PARSER_DIAGNOSTICS = new ReusedJavac.Diagnostics();

  private static Map<Integer, Parsed> parseAll(Map<Integer, String> sources) {
    List<Unit> units = new ArrayList<>();
    for (Map.Entry<Integer, String> e : sources.entrySet()) units.add(new Unit(e.getKey(), e.getValue()));
    return withParser(units, (task, diags) -> parseWith(task, sources, units, diags));
  }

  /** Runs `work` on a parse-only javac task over `units` (in the reused context when there is one). */
  private static <T> T withParser(List<Unit> units, java.util.function.BiFunction<JavacTask, DiagnosticCollector<JavaFileObject>, T> work) {
    DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
    // every error counts (javac stops reporting after 100 by default, and an unreported one would pass a unit as sound)
    List<String> options = List.of("-proc:none", "-Xmaxerrs", "1000000");
    if (PARSER_POOL == null) return work.apply((JavacTask) COMPILER.getTask(null, PARSER_FILES, diags, options, null, units), diags);
    synchronized (PARSER_POOL) {
      PARSER_DIAGNOSTICS.target = diags;
      try {
        return PARSER_POOL.getTask(null, PARSER_FILES, PARSER_DIAGNOSTICS, options, null, units, task -> work.apply((JavacTask) task, diags));
      } finally {
        PARSER_DIAGNOSTICS.target = null;
      }
    }
  }

  private static Set<URI> brokenUnits(DiagnosticCollector<JavaFileObject> diags) {
    Set<URI> broken = new java.util.HashSet<>();
    for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
      if (d.getKind() == Diagnostic.Kind.ERROR && d.getSource() != null) broken.add(d.getSource().toUri());
    }
    return broken;
  }

  /** Parses within the task (its trees' positions are the task's) and collects what merging needs. */
  private static Map<Integer, Parsed> parseWith(JavacTask task, Map<Integer, String> sources, List<Unit> units, DiagnosticCollector<JavaFileObject> diags) {
    Map<Integer, Parsed> out = new LinkedHashMap<>();
    Iterable<? extends CompilationUnitTree> trees;
    try {
      trees = task.parse();
    } catch (java.io.IOException | RuntimeException e) {
      for (Integer i : sources.keySet()) {
        Parsed p = new Parsed(sources.get(i));
        p.ok = false;
        out.put(i, p);
      }
      return out;
    }
    Set<URI> broken = brokenUnits(diags);
    SourcePositions positions = Trees.instance(task).getSourcePositions();
    int k = 0;
    List<Integer> keys = new ArrayList<>(sources.keySet());
    for (CompilationUnitTree cu : trees) {
      Unit unit = units.get(k);
      Parsed p = new Parsed(unit.text);
      p.ok = !broken.contains(unit.toUri());
      if (p.ok) collect(cu, p, positions);
      out.put(keys.get(k++), p);
    }
    return out;
  }

  /** Every method with a body outside other methods' bodies, with what merging needs to know about it. */
  private static void collect(CompilationUnitTree cu, Parsed p, SourcePositions pos) {
    for (Tree t : cu.getTypeDecls()) p.declarationsEnd = Math.max(p.declarationsEnd, (int) pos.getEndPosition(cu, t));
    new TreeScanner<Void, Tree>() {
      @Override
      public Void visitClass(ClassTree node, Tree parent) {
        return super.visitClass(node, node);
      }

      @Override
      public Void visitMethod(MethodTree node, Tree enclosing) {
        BlockTree body = node.getBody();
        if (body == null) return null;
        Method m = new Method();
        m.name = node.getName().toString();
        m.constructor = m.name.equals("<init>");
        m.isStatic = node.getModifiers().getFlags().contains(Modifier.STATIC);
        m.bodyStart = (int) pos.getStartPosition(cu, body);
        m.bodyEnd = (int) pos.getEndPosition(cu, body);
        m.bodyStartLine = (int) cu.getLineMap().getLineNumber(m.bodyStart);
        m.bodyEndLine = (int) cu.getLineMap().getLineNumber(Math.max(m.bodyStart, m.bodyEnd - 1));
        ClassTree owner = enclosing instanceof ClassTree ? (ClassTree) enclosing : null;
        m.mergeableHere = owner != null && memberClass(cu, owner) && (owner.getKind() == Tree.Kind.CLASS || owner.getKind() == Tree.Kind.ENUM);
        m.classClose = owner == null ? -1 : (int) pos.getEndPosition(cu, owner) - 1;
        m.bodyUnsafe = unsafe(body);
        m.header = m.constructor ? null : header(cu, node, pos, p.source);
        p.methods.add(m);
        return null; // bodies are not searched for further methods: those belong to local/anonymous classes
      }
    }.scan(cu, null);
  }

  /** Top-level or member class (not local or anonymous): its name is fixed whatever the variants' bodies hold. */
  private static boolean memberClass(CompilationUnitTree cu, ClassTree owner) {
    boolean[] found = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitClass(ClassTree node, Void v) {
        if (node == owner) found[0] = true;
        for (Tree member : node.getMembers()) if (member instanceof ClassTree) scan(member, null);
        return null;
      }
    }.scan(cu.getTypeDecls(), null);
    return found[0];
  }

  /**
   * Constructs whose compiler-generated names or tables depend on their position in the file (lambdas, method
   * references, local and anonymous classes, switches, asserts), and trees newer than this code knows (OTHER).
   */
  private static final Set<Tree.Kind> POSITION_DEPENDENT = java.util.EnumSet.of(Tree.Kind.LAMBDA_EXPRESSION, Tree.Kind.MEMBER_REFERENCE,
      Tree.Kind.CLASS, Tree.Kind.INTERFACE, Tree.Kind.ENUM, Tree.Kind.ANNOTATION_TYPE, Tree.Kind.RECORD, Tree.Kind.SWITCH,
      Tree.Kind.SWITCH_EXPRESSION, Tree.Kind.ASSERT, Tree.Kind.OTHER);

  private static boolean unsafe(BlockTree body) {
    boolean[] found = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void scan(Tree tree, Void v) {
        if (tree == null || found[0]) return null;
        boolean anonymousClass = tree instanceof NewClassTree && ((NewClassTree) tree).getClassBody() != null;
        if (anonymousClass || POSITION_DEPENDENT.contains(tree.getKind())) {
          found[0] = true;
          return null;
        }
        return super.scan(tree, v);
      }
    }.scan(body, null);
    return found[0];
  }

  /** `private [static] <T> R \0(params) throws X` on one line (\0 stands for the copy's name), or null. */
  private static String header(CompilationUnitTree cu, MethodTree node, SourcePositions pos, String src) {
    StringBuilder h = new StringBuilder("private ");
    if (node.getModifiers().getFlags().contains(Modifier.STATIC)) h.append("static ");
    if (!node.getTypeParameters().isEmpty()) {
      h.append('<').append(slice(cu, pos, src, node.getTypeParameters().get(0), node.getTypeParameters().get(node.getTypeParameters().size() - 1))).append("> ");
    }
    h.append(slice(cu, pos, src, node.getReturnType(), node.getReturnType())).append(" \u0000(");
    if (node.getReceiverParameter() != null) return null;
    if (!node.getParameters().isEmpty()) h.append(slice(cu, pos, src, node.getParameters().get(0), node.getParameters().get(node.getParameters().size() - 1)));
    h.append(')');
    if (!node.getThrows().isEmpty()) h.append(" throws ").append(slice(cu, pos, src, node.getThrows().get(0), node.getThrows().get(node.getThrows().size() - 1)));
    String text = h.toString();
    if (text.contains("//") || text.contains("/*")) return null;
    return text.replace('\n', ' ').replace('\r', ' ');
  }

  private static String slice(CompilationUnitTree cu, SourcePositions pos, String src, Tree first, Tree last) {
    long start = pos.getStartPosition(cu, first);
    long end = pos.getEndPosition(cu, last);
    if (start < 0 || end < start) throw new IllegalStateException("no source position");
    return src.substring((int) start, (int) end);
  }

  static String describe(Plan p) {
    return String.format(Locale.ROOT, "%d variants of %s merged", p.members.size(), p.file);
  }
}
