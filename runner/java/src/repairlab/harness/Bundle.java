package repairlab.harness;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the runner sends after `VALIDATE <bytes>` or `VALIDATE_BATCH <bytes>` on the warm worker's stdin: a header of
 * `key<TAB>value` lines, an empty line, then a blob holding every file of the exchange. The header lists the files
 * (`file<TAB>offset<TAB>length<TAB>name`, byte offsets into the blob) and the validations (`request<TAB>name`); a
 * request file names its changed files as `changed<TAB>repo path<TAB>name`. Nothing touches the disk: creating a
 * few dozen small files cost 10-30 ms per batch on an overlay file system.
 */
final class Bundle {
  private final byte[] data;
  private final int blobStart;
  private final Map<String, int[]> files = new HashMap<>();
  final List<Request> requests = new ArrayList<>();

  private Bundle(byte[] data, int blobStart) {
    this.data = data;
    this.blobStart = blobStart;
  }

  static Bundle parse(byte[] data) {
    int end = -1;
    for (int i = 0; i + 1 < data.length; i++) {
      if (data[i] == '\n' && data[i + 1] == '\n') {
        end = i;
        break;
      }
    }
    if (end < 0) throw new IllegalArgumentException("bundle without a header");
    Request header = Request.parse(new String(data, 0, end + 1, StandardCharsets.UTF_8));
    Bundle b = new Bundle(data, end + 2);
    for (String f : header.all("file")) {
      String[] parts = f.split("\t", 3);
      int offset = Integer.parseInt(parts[0]);
      int length = Integer.parseInt(parts[1]);
      if (offset < 0 || length < 0 || b.blobStart + offset + length > data.length) throw new IllegalArgumentException("bundle file " + parts[2] + " lies outside the blob");
      b.files.put(parts[2], new int[] {offset, length});
    }
    for (String name : header.all("request")) b.requests.add(Request.parse(b.text(name)));
    return b;
  }

  String text(String name) {
    int[] at = files.get(name);
    if (at == null) throw new IllegalArgumentException("bundle has no file " + name);
    return new String(data, blobStart + at[0], at[1], StandardCharsets.UTF_8);
  }

  /** A request's changed files: repo path → new content. */
  Map<String, String> changed(Request req) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    for (String v : req.all("changed")) {
      int tab = v.indexOf('\t');
      out.put(v.substring(0, tab), text(v.substring(tab + 1)));
    }
    return out;
  }
}
