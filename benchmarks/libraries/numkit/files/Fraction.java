package org.repairlab.numkit;

/** An exact rational number in lowest terms; the sign is kept in the numerator. */
public final class Fraction {

    private final long num;
    private final long den;

    private Fraction(long num, long den) {
        this.num = num;
        this.den = den;
    }

    /** The fraction numerator/denominator, reduced to lowest terms. */
    public static Fraction of(long numerator, long denominator) {
        if (denominator < 0) {
            numerator = -numerator;
            denominator = -denominator;
        }
        long g = Math.max(1, MathUtils.gcd(Math.abs(numerator), denominator));
        return new Fraction(numerator / g, denominator / g);
    }

    public long numerator() {
        return num;
    }

    public long denominator() {
        return den;
    }

    public Fraction multiply(Fraction other) {
        return of(num * other.num, den * other.den);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Fraction && ((Fraction) o).num == num && ((Fraction) o).den == den;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(num) * 31 + Long.hashCode(den);
    }

    @Override
    public String toString() {
        return den == 1 ? Long.toString(num) : num + "/" + den;
    }
}
