package org.repairlab.numkit;

/** Roman numerals for 1..3999. */
public final class Roman {

    private static final int[] VALUES = {1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1};
    private static final String[] SYMBOLS = {"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"};

    private Roman() {
    }

    /** 1994 is "MCMXCIV". */
    public static String toRoman(int number) {
        StringBuilder out = new StringBuilder();
        int rest = number;
        for (int i = 0; i < VALUES.length; i++) {
            while (rest >= VALUES[i]) {
                out.append(SYMBOLS[i]);
                rest -= VALUES[i];
            }
        }
        return out.toString();
    }
}
