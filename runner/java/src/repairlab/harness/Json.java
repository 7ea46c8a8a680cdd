package repairlab.harness;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Minimal JSON writer (the harness only emits JSON; requests arrive as tab-separated text). */
final class Json {
  private Json() {}

  static String str(String s) {
    if (s == null) return "null";
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': b.append("\\\""); break;
        case '\\': b.append("\\\\"); break;
        case '\n': b.append("\\n"); break;
        case '\r': b.append("\\r"); break;
        case '\t': b.append("\\t"); break;
        default:
          if (c < 0x20 || (c >= 0xD800 && c <= 0xDFFF && !validSurrogate(s, i))) {
            b.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) (c < 0x20 ? c : 0xFFFD)));
          } else {
            b.append(c);
          }
      }
    }
    return b.append('"').toString();
  }

  private static boolean validSurrogate(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }

  /** Serialises String, Number, Boolean, null, Map<String,?>, List<?> (and int[] / long[]). */
  static String write(Object v) {
    StringBuilder b = new StringBuilder();
    write(b, v);
    return b.toString();
  }

  @SuppressWarnings("unchecked")
  private static void write(StringBuilder b, Object v) {
    if (v == null) b.append("null");
    else if (v instanceof String) b.append(str((String) v));
    else if (v instanceof Number || v instanceof Boolean) b.append(v);
    else if (v instanceof int[]) {
      int[] a = (int[]) v;
      b.append('[');
      for (int i = 0; i < a.length; i++) b.append(i == 0 ? "" : ",").append(a[i]);
      b.append(']');
    } else if (v instanceof Map) {
      b.append('{');
      Iterator<Map.Entry<String, Object>> it = ((Map<String, Object>) v).entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<String, Object> e = it.next();
        b.append(str(e.getKey())).append(':');
        write(b, e.getValue());
        if (it.hasNext()) b.append(',');
      }
      b.append('}');
    } else if (v instanceof List) {
      b.append('[');
      List<Object> l = (List<Object>) v;
      for (int i = 0; i < l.size(); i++) {
        if (i > 0) b.append(',');
        write(b, l.get(i));
      }
      b.append(']');
    } else b.append(str(String.valueOf(v)));
  }
}
