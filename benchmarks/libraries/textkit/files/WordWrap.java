package org.repairlab.textkit;

import java.util.ArrayList;
import java.util.List;

/** Greedy word wrapping for plain text. */
public final class WordWrap {

    private WordWrap() {
    }

    /**
     * Splits text into lines of at most {@code width} characters, breaking at spaces.
     * A word longer than the width gets a line of its own.
     */
    public static List<String> wrap(String text, int width) {
        if (width < 1) {
            throw new IllegalArgumentException("width must be positive: " + width);
        }
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.trim().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > 0) {
            lines.add(line.toString());
        }
        return lines;
    }

    /** The wrapped lines joined with '\n'. */
    public static String fill(String text, int width) {
        return String.join("\n", wrap(text, width));
    }
}
