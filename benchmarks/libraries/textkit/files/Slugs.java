package org.repairlab.textkit;

import java.text.Normalizer;
import java.util.Locale;

/** URL slugs from titles: "Hello, World!" becomes "hello-world". */
public final class Slugs {

    private Slugs() {
    }

    /** Lower-case letters and digits separated by single dashes; an empty slug for null. */
    public static String slugify(String title) {
        String plain = Normalizer.normalize(title, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
        StringBuilder out = new StringBuilder();
        boolean dash = false;
        for (char c : plain.toLowerCase(Locale.ROOT).toCharArray()) {
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
                if (dash && out.length() > 0) {
                    out.append('-');
                }
                out.append(c);
                dash = false;
            } else {
                dash = true;
            }
        }
        return out.toString();
    }
}
