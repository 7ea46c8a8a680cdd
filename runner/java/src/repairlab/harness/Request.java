package repairlab.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A request file written by the Node runner: one `key<TAB>value` pair per line, keys may repeat.
 * Text instead of JSON keeps the harness free of a JSON parser dependency.
 */
final class Request {
  final Map<String, List<String>> values = new LinkedHashMap<>();

  static Request read(Path file) throws IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8));
  }

  static Request parse(String text) {
    Request r = new Request();
    for (String line : text.split("\n")) {
      if (line.isEmpty()) continue;
      int tab = line.indexOf('\t');
      String key = tab < 0 ? line : line.substring(0, tab);
      String value = tab < 0 ? "" : line.substring(tab + 1);
      r.values.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
    }
    return r;
  }

  String get(String key, String fallback) {
    List<String> v = values.get(key);
    return v == null || v.isEmpty() ? fallback : v.get(0);
  }

  long getLong(String key, long fallback) {
    String v = get(key, null);
    return v == null ? fallback : Long.parseLong(v);
  }

  List<String> all(String key) {
    List<String> v = values.get(key);
    return v == null ? new ArrayList<>() : v;
  }
}
