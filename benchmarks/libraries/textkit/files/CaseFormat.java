package org.repairlab.textkit;

/** Conversions between camelCase, snake_case and kebab-case identifiers. */
public final class CaseFormat {

    private CaseFormat() {
    }

    /** "parseHttpHeader" to "parse_http_header". */
    public static String camelToSnake(String camel) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (Character.isUpperCase(c)) {
                if (i > 0) {
                    out.append('_');
                }
                out.append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** "parse_http_header" to "parseHttpHeader". */
    public static String snakeToCamel(String snake) {
        StringBuilder out = new StringBuilder();
        boolean upperNext = false;
        for (char c : snake.toCharArray()) {
            if (c == '_') {
                upperNext = out.length() > 0;
            } else if (upperNext) {
                out.append(Character.toUpperCase(c));
                upperNext = false;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
