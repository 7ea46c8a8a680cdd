// numkit — exact fractions, primes, roman numerals and small statistics.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  MAVEN_JUNIT4_LAYOUT,
  addMembers,
  branch,
  commit,
  edit,
  editAll,
  fileReader,
  merge,
  rename,
  write,
  type LibraryDefinition,
} from '../../history-dsl.ts';

const file = fileReader(dirname(fileURLToPath(import.meta.url)));
const main = (name: string) => `src/main/java/org/repairlab/numkit/${name}`;
const test = (name: string) => `src/test/java/org/repairlab/numkit/${name}`;

const people = {
  gus: { name: 'Gustavo Reyes', email: 'greyes@example.org', tz: '-0600' },
  hana: { name: 'Hana Sato', email: 'hana.sato@example.jp', tz: '+0900' },
  ivo: { name: 'Ivo Petrov', email: 'ivo@petrov.example', tz: '+0200' },
};

export const numkit: LibraryDefinition = {
  id: 'numkit',
  description: 'exact fractions, primes, roman numerals, descriptive statistics',
  layout: MAVEN_JUNIT4_LAYOUT,
  people,
  start: '2024-03-11T14:00:00Z',
  steps: [
    commit('gus', 'Initial commit', [
      write('README.md', file('README.md')),
      write('pom.xml', file('pom.xml')),
      write('.gitignore', 'target/\n'),
    ]),
    commit('gus', 'Add gcd and lcm', [
      write(main('MathUtils.java'), file('MathUtils.java')),
      write(test('MathUtilsTest.java'), file('MathUtilsTest.java')),
    ]),
    commit('hana', 'Add Fraction', [
      write(main('Fraction.java'), file('Fraction.java')),
      write(test('FractionTest.java'), file('FractionTest.java')),
    ], { label: 'add-fraction' }),
    commit('gus', 'Add Primes.isPrime', [
      write(main('Primes.java'), file('Primes.java')),
      write(test('PrimesTest.java'), file('PrimesTest.java')),
    ]),
    commit('hana', 'Fraction.add', [
      addMembers(main('Fraction.java'), `
    public Fraction add(Fraction other) {
        return of(num * other.den + other.num * den, den * other.den);
    }`),
      addMembers(test('FractionTest.java'), `
    @Test
    public void addFractions() {
        assertEquals(Fraction.of(3, 4), Fraction.of(1, 4).add(Fraction.of(2, 4)));
        assertEquals(Fraction.of(5, 6), Fraction.of(1, 2).add(Fraction.of(1, 3)));
    }`),
    ]),
    commit('gus', 'Primes.primesUpTo with a sieve', [
      edit(main('Primes.java'), 'package org.repairlab.numkit;\n', 'package org.repairlab.numkit;\n\nimport java.util.ArrayList;\nimport java.util.List;\n'),
      addMembers(main('Primes.java'), `
    /** All primes up to and including {@code limit} (sieve of Eratosthenes). */
    public static List<Integer> primesUpTo(int limit) {
        boolean[] composite = new boolean[Math.max(limit + 1, 2)];
        List<Integer> primes = new ArrayList<>();
        for (int i = 2; i <= limit; i++) {
            if (composite[i]) {
                continue;
            }
            primes.add(i);
            for (long j = (long) i * i; j <= limit; j += i) {
                composite[(int) j] = true;
            }
        }
        return primes;
    }`),
      addMembers(test('PrimesTest.java'), `
    @Test
    public void sieve() {
        org.junit.Assert.assertEquals(java.util.Arrays.asList(2, 3, 5, 7, 11, 13), Primes.primesUpTo(13));
        org.junit.Assert.assertEquals(java.util.Collections.emptyList(), Primes.primesUpTo(1));
    }`),
    ]),
    commit('hana', 'Add Stats with mean and median', [
      write(main('Stats.java'), file('Stats.java')),
      write(test('StatsTest.java'), file('StatsTest.java')),
    ]),
    commit('ivo', 'Add Roman.toRoman', [
      write(main('Roman.java'), file('Roman.java')),
      write(test('RomanTest.java'), file('RomanTest.java')),
    ], { label: 'add-roman' }),
    commit('ivo', 'Roman.fromRoman', [
      addMembers(main('Roman.java'), `
    /** "MCMXCIV" is 1994. */
    public static int fromRoman(String numeral) {
        int total = 0;
        int previous = 0;
        for (int i = numeral.length() - 1; i >= 0; i--) {
            int value = valueOf(numeral.charAt(i));
            if (value < previous) {
                total -= value;
            } else {
                total += value;
                previous = value;
            }
        }
        return total;
    }

    private static int valueOf(char symbol) {
        switch (symbol) {
            case 'I':
                return 1;
            case 'V':
                return 5;
            case 'X':
                return 10;
            case 'L':
                return 50;
            case 'C':
                return 100;
            case 'D':
                return 500;
            case 'M':
                return 1000;
            default:
                throw new IllegalArgumentException("not a roman digit: " + symbol);
        }
    }`),
      addMembers(test('RomanTest.java'), `
    @Test
    public void fromRoman() {
        assertEquals(1994, Roman.fromRoman("MCMXCIV"));
        assertEquals(4, Roman.fromRoman("IV"));
    }

    @Test(expected = IllegalArgumentException.class)
    public void unknownDigit() {
        Roman.fromRoman("XIZ");
    }`),
    ], { label: 'from-roman' }),
    commit('gus', 'MathUtils.clamp', [
      addMembers(main('MathUtils.java'), `
    /** {@code value} limited to [min, max]. */
    public static long clamp(long value, long min, long max) {
        if (min > max) {
            throw new IllegalArgumentException("min " + min + " > max " + max);
        }
        return Math.max(min, Math.min(max, value));
    }`),
      addMembers(test('MathUtilsTest.java'), `
    @Test
    public void clamp() {
        assertEquals(5, MathUtils.clamp(9, 0, 5));
        assertEquals(0, MathUtils.clamp(-3, 0, 5));
        assertEquals(3, MathUtils.clamp(3, 0, 5));
    }`),
    ], { label: 'clamp' }),
    commit('hana', 'Stats.variance and stddev (sample)', [
      addMembers(main('Stats.java'), `
    /** Sample variance (divides by n - 1). */
    public static double variance(double... values) {
        if (values.length < 2) {
            throw new IllegalArgumentException("need at least two values");
        }
        double m = mean(values);
        double sum = 0;
        for (double v : values) {
            sum += (v - m) * (v - m);
        }
        return sum / (values.length - 1);
    }

    public static double stddev(double... values) {
        return Math.sqrt(variance(values));
    }`),
      addMembers(test('StatsTest.java'), `
    @Test
    public void sampleVariance() {
        assertEquals(2.5, Stats.variance(1, 2, 3, 4, 5), EPS);
        assertEquals(Math.sqrt(2.5), Stats.stddev(1, 2, 3, 4, 5), EPS);
    }`),
    ]),
    commit('gus', 'Primes: only try odd divisors', [
      edit(main('Primes.java'), `        for (long d = 2; d * d <= n; d++) {`, `        if (n % 2 == 0) {
            return n == 2;
        }
        for (long d = 3; d * d < n; d += 2) {`),
    ], { label: 'primes-odd' }),
    commit('hana', 'Fraction: divide and reciprocal', [
      addMembers(main('Fraction.java'), `
    public Fraction reciprocal() {
        return of(den, num);
    }

    public Fraction divide(Fraction other) {
        return multiply(other.reciprocal());
    }`),
      addMembers(test('FractionTest.java'), `
    @Test
    public void divide() {
        assertEquals(Fraction.of(3, 2), Fraction.of(3, 4).divide(Fraction.of(1, 2)));
    }`),
    ]),
    branch('feature/fraction-compare'),
    commit('ivo', 'Fraction implements Comparable', [
      edit(main('Fraction.java'), 'public final class Fraction {', 'public final class Fraction implements Comparable<Fraction> {'),
      addMembers(main('Fraction.java'), `
    @Override
    public int compareTo(Fraction other) {
        return Long.compare(num * other.den, other.num * den);
    }`),
      addMembers(test('FractionTest.java'), `
    @Test
    public void ordering() {
        org.junit.Assert.assertTrue(Fraction.of(1, 3).compareTo(Fraction.of(1, 2)) < 0);
        org.junit.Assert.assertTrue(Fraction.of(-1, 2).compareTo(Fraction.of(-2, 3)) > 0);
        assertEquals(0, Fraction.of(2, 4).compareTo(Fraction.of(1, 2)));
    }`),
    ], { branch: 'feature/fraction-compare' }),
    commit('hana', 'Stats.percentile (nearest rank)', [
      addMembers(main('Stats.java'), `
    /** The nearest-rank percentile, p in (0, 100]. */
    public static double percentile(double p, double... values) {
        requireValues(values);
        if (p <= 0 || p > 100) {
            throw new IllegalArgumentException("p must be in (0, 100]: " + p);
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[rank - 1];
    }`),
      addMembers(test('StatsTest.java'), `
    @Test
    public void percentileNearestRank() {
        assertEquals(20, Stats.percentile(30, 15, 20, 35, 40, 50), EPS);
        assertEquals(50, Stats.percentile(100, 15, 20, 35, 40, 50), EPS);
    }`),
    ]),
    commit('ivo', 'Fraction.doubleValue', [
      addMembers(main('Fraction.java'), `
    public double doubleValue() {
        return (double) num / den;
    }`),
    ], { branch: 'feature/fraction-compare' }),
    merge('feature/fraction-compare', 'hana', "Merge branch 'feature/fraction-compare'", 'merge-compare'),
    commit('gus', 'Fraction.subtract', [
      addMembers(main('Fraction.java'), `
    public Fraction subtract(Fraction other) {
        return of(num * other.den - other.num * den, den * other.den);
    }`),
      addMembers(test('FractionTest.java'), `
    @Test
    public void subtractFractions() {
        assertEquals(Fraction.of(2, 5), Fraction.of(3, 5).subtract(Fraction.of(1, 5)));
        assertEquals(Fraction.of(0, 1), Fraction.of(1, 2).subtract(Fraction.of(1, 2)));
    }`),
    ]),
    commit('ivo', 'Roman: accept lower-case numerals', [
      edit(main('Roman.java'), 'int value = valueOf(numeral.charAt(i));', 'int value = valueOf(Character.toUpperCase(numeral.charAt(i)));'),
      addMembers(test('RomanTest.java'), `
    @Test
    public void lowerCase() {
        assertEquals(14, Roman.fromRoman("xiv"));
    }`),
    ], { label: 'roman-lower' }),
    commit('hana', 'Changelog for 0.4.0', [
      write('CHANGELOG.md', '# Changelog\n\n## 0.4.0\n\n- Fraction: add, subtract, divide, compareTo, doubleValue\n- Primes.primesUpTo, faster isPrime\n- Stats: variance, stddev, percentile\n- Roman numerals\n'),
    ], { label: 'changelog-0.4.0' }),
    commit('gus', 'Fraction: use the least common denominator in add and subtract', [
      edit(main('Fraction.java'), '        return of(num * other.den + other.num * den, den * other.den);\n', `        long common = MathUtils.lcm(den, other.den);
        return of(num * (common / other.den) + other.num * (common / den), common);
`),
      edit(main('Fraction.java'), '        return of(num * other.den - other.num * den, den * other.den);\n', `        long common = MathUtils.lcm(den, other.den);
        return of(num * (common / other.den) - other.num * (common / den), common);
`),
    ], { label: 'fraction-lcm' }),
    commit('hana', 'Stats.mode', [
      edit(main('Stats.java'), 'import java.util.Arrays;\n', 'import java.util.Arrays;\nimport java.util.HashMap;\nimport java.util.Map;\n'),
      addMembers(main('Stats.java'), `
    /** The most frequent value; the smallest one on ties. */
    public static double mode(double... values) {
        requireValues(values);
        Map<Double, Integer> counts = new HashMap<>();
        double best = values[0];
        for (double v : values) {
            int c = counts.merge(v, 1, Integer::sum);
            int bestCount = counts.get(best);
            if (c > bestCount || (c == bestCount && v < best)) {
                best = v;
            }
        }
        return best;
    }`),
      addMembers(test('StatsTest.java'), `
    @Test
    public void mode() {
        assertEquals(3, Stats.mode(1, 3, 2, 3, 1, 3), EPS);
        assertEquals(1, Stats.mode(2, 1, 2, 1), EPS);
    }`),
    ]),
    commit('ivo', 'MathUtils.isPowerOfTwo', [
      addMembers(main('MathUtils.java'), `
    public static boolean isPowerOfTwo(long n) {
        return n > 0 && (n & (n - 1)) == 0;
    }`),
      addMembers(test('MathUtilsTest.java'), `
    @Test
    public void powersOfTwo() {
        org.junit.Assert.assertTrue(MathUtils.isPowerOfTwo(64));
        org.junit.Assert.assertFalse(MathUtils.isPowerOfTwo(96));
        org.junit.Assert.assertFalse(MathUtils.isPowerOfTwo(0));
    }`),
    ]),
    commit('gus', 'Primes.factorize', [
      addMembers(main('Primes.java'), `
    /** Prime factors in ascending order with repetition: factorize(12) is [2, 2, 3]. */
    public static List<Long> factorize(long n) {
        if (n < 2) {
            throw new IllegalArgumentException("n must be at least 2: " + n);
        }
        List<Long> factors = new ArrayList<>();
        for (long d = 2; d * d <= n; d++) {
            while (n % d == 0) {
                factors.add(d);
                n /= d;
            }
        }
        if (n > 1) {
            factors.add(n);
        }
        return factors;
    }`),
      addMembers(test('PrimesTest.java'), `
    @Test
    public void factorize() {
        org.junit.Assert.assertEquals(java.util.Arrays.asList(2L, 2L, 3L), Primes.factorize(12));
        org.junit.Assert.assertEquals(java.util.Arrays.asList(97L), Primes.factorize(97));
    }`),
    ]),
    commit('hana', 'Fraction.abs and negate', [
      addMembers(main('Fraction.java'), `
    public Fraction negate() {
        return of(-num, den);
    }

    public Fraction abs() {
        return num < 0 ? negate() : this;
    }`),
      addMembers(test('FractionTest.java'), `
    @Test
    public void absAndNegate() {
        assertEquals(Fraction.of(1, 3), Fraction.of(-1, 3).abs());
        assertEquals(Fraction.of(-2, 5), Fraction.of(2, 5).negate());
    }`),
    ]),
    commit('ivo', 'README: examples', [
      edit('README.md', '    mvn test\n', `    mvn test

    Fraction.of(1, 2).add(Fraction.of(1, 3));   // 5/6
    Primes.primesUpTo(20);                      // [2, 3, 5, 7, 11, 13, 17, 19]
    Roman.toRoman(2024);                        // MMXXIV
    Stats.median(4, 1, 3, 2);                   // 2.5
`),
    ]),
    commit('gus', 'Bump version to 0.5.0-SNAPSHOT', [edit('pom.xml', '<version>0.1.0-SNAPSHOT</version>', '<version>0.5.0-SNAPSHOT</version>')]),
    commit('hana', 'Stats.range', [
      addMembers(main('Stats.java'), `
    /** max - min */
    public static double range(double... values) {
        requireValues(values);
        double min = values[0];
        double max = values[0];
        for (double v : values) {
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return max - min;
    }`),
      addMembers(test('StatsTest.java'), `
    @Test
    public void range() {
        assertEquals(7, Stats.range(3, -2, 5, 1), EPS);
    }`),
    ]),
    commit('ivo', 'MathUtils.binomial', [
      addMembers(main('MathUtils.java'), `
    /** n choose k, exact for results that fit in a long. */
    public static long binomial(int n, int k) {
        if (k < 0 || k > n) {
            return 0;
        }
        long result = 1;
        for (int i = 1; i <= Math.min(k, n - k); i++) {
            result = result * (n - i + 1) / i;
        }
        return result;
    }`),
      addMembers(test('MathUtilsTest.java'), `
    @Test
    public void binomial() {
        assertEquals(10, MathUtils.binomial(5, 2));
        assertEquals(1, MathUtils.binomial(7, 0));
        assertEquals(0, MathUtils.binomial(3, 4));
    }`),
    ]),
    commit('gus', 'Fraction.pow', [
      addMembers(main('Fraction.java'), `
    /** This fraction to a non-negative integer power. */
    public Fraction pow(int exponent) {
        if (exponent < 0) {
            throw new IllegalArgumentException("negative exponent: " + exponent);
        }
        Fraction result = of(1, 1);
        for (int i = 0; i < exponent; i++) {
            result = result.multiply(this);
        }
        return result;
    }`),
      addMembers(test('FractionTest.java'), `
    @Test
    public void pow() {
        assertEquals(Fraction.of(8, 27), Fraction.of(2, 3).pow(3));
        assertEquals(Fraction.of(1, 1), Fraction.of(2, 3).pow(0));
    }`),
    ]),
    commit('hana', 'Stats: document the sample convention', [
      edit(main('Stats.java'), '/** Descriptive statistics over arrays of doubles. */', '/**\n * Descriptive statistics over arrays of doubles. Variance and standard deviation are sample\n * statistics (n - 1 in the denominator), as spreadsheets compute them.\n */'),
    ]),
    commit('ivo', 'Rename MathUtils to IntMath', [
      rename(main('MathUtils.java'), main('IntMath.java')),
      editAll(main('IntMath.java'), 'MathUtils', 'IntMath'),
      editAll(main('Fraction.java'), 'MathUtils.', 'IntMath.'),
      rename(test('MathUtilsTest.java'), test('IntMathTest.java')),
      editAll(test('IntMathTest.java'), 'MathUtils', 'IntMath'),
    ], { label: 'tip' }),
  ],
  bugs: [
    {
      id: 'numkit-1',
      at: 'changelog-0.4.0',
      introducedBy: ['primes-odd'],
      tests: {
        author: 'ivo',
        message: 'Primes: test squares of odd primes',
        ops: [
          addMembers(test('PrimesTest.java'), `
    @Test
    public void squaresOfOddPrimesAreNotPrime() {
        for (long n : new long[] {9, 25, 49, 121}) {
            assertFalse(n + " is not prime", Primes.isPrime(n));
        }
    }`),
        ],
      },
      fix: {
        author: 'gus',
        message: 'Primes.isPrime: also try the square root as a divisor',
        ops: [edit(main('Primes.java'), 'for (long d = 3; d * d < n; d += 2) {', 'for (long d = 3; d * d <= n; d += 2) {')],
      },
      failingTests: ['org.repairlab.numkit.PrimesTest::squaresOfOddPrimesAreNotPrime'],
      report: {
        title: 'isPrime(9) returns true',
        body: [
          '**Describe the bug**',
          '`Primes.isPrime` reports some composite numbers as prime.',
          '',
          '**To reproduce**',
          '```java',
          'Primes.isPrime(9);   // true',
          'Primes.isPrime(25);  // true',
          'Primes.isPrime(15);  // false (correct)',
          '```',
          '',
          '**Expected behavior**',
          '9 and 25 are not prime, so both calls should return false.',
          '',
          '**Version**: 0.4.0. I think 0.3.0 was fine; the changelog mentions a faster isPrime.',
        ].join('\n'),
      },
      defectKinds: ['operator'],
    },
    {
      id: 'numkit-2',
      at: 'clamp',
      introducedBy: ['add-fraction'],
      tests: {
        author: 'gus',
        message: 'Fraction: zero denominator test',
        ops: [
          addMembers(test('FractionTest.java'), `
    @Test(expected = ArithmeticException.class)
    public void zeroDenominatorIsRejected() {
        Fraction.of(1, 0);
    }`),
        ],
      },
      fix: {
        author: 'hana',
        message: 'Fraction.of: reject a zero denominator',
        ops: [
          edit(main('Fraction.java'), '    public static Fraction of(long numerator, long denominator) {\n',
            '    public static Fraction of(long numerator, long denominator) {\n        if (denominator == 0) throw new ArithmeticException("zero denominator");\n'),
        ],
      },
      failingTests: ['org.repairlab.numkit.FractionTest::zeroDenominatorIsRejected'],
      report: {
        title: 'Fraction.of(1, 0) gives 1/0',
        body: 'Should throw ArithmeticException.',
      },
      defectKinds: ['missing-statement', 'condition'],
    },
    {
      id: 'numkit-3',
      at: 'tip',
      introducedBy: ['fraction-lcm'],
      tests: {
        author: 'ivo',
        message: 'Fraction: add and subtract with unlike denominators',
        ops: [
          addMembers(test('FractionTest.java'), `
    @Test
    public void addUnlikeDenominators() {
        assertEquals(Fraction.of(5, 4), Fraction.of(1, 2).add(Fraction.of(3, 4)));
    }

    @Test
    public void subtractUnlikeDenominators() {
        assertEquals(Fraction.of(5, 12), Fraction.of(3, 4).subtract(Fraction.of(1, 3)));
    }`),
        ],
      },
      fix: {
        author: 'gus',
        message: 'Fraction: scale each numerator by its own factor',
        ops: [
          edit(main('Fraction.java'), 'return of(num * (common / other.den) + other.num * (common / den), common);', 'return of(num * (common / den) + other.num * (common / other.den), common);'),
          edit(main('Fraction.java'), 'return of(num * (common / other.den) - other.num * (common / den), common);', 'return of(num * (common / den) - other.num * (common / other.den), common);'),
        ],
      },
      failingTests: ['org.repairlab.numkit.FractionTest::addUnlikeDenominators', 'org.repairlab.numkit.FractionTest::subtractUnlikeDenominators'],
      report: {
        title: 'Wrong results from Fraction.add / subtract on master',
        body: [
          'On the current master:',
          '',
          '    Fraction.of(1, 2).add(Fraction.of(3, 4))       -> 7/4   (expected 5/4)',
          '    Fraction.of(3, 4).subtract(Fraction.of(1, 3))  -> 3/4   (expected 5/12)',
          '',
          '1/2 + 1/3 still comes out right, which is probably why the tests did not catch it.',
        ].join('\n'),
      },
      defectKinds: ['wrong-variable', 'wrong-argument'],
    },
    {
      id: 'numkit-4',
      at: 'tip',
      introducedBy: ['add-roman', 'from-roman'],
      tests: {
        author: 'hana',
        message: 'Roman: tests for values outside 1..3999',
        ops: [
          addMembers(test('RomanTest.java'), `
    @Test
    public void outOfRangeNumbersAreRejected() {
        for (int n : new int[] {0, -5, 4000}) {
            try {
                Roman.toRoman(n);
                org.junit.Assert.fail("expected IllegalArgumentException for " + n);
            } catch (IllegalArgumentException expected) {
                // ok
            }
        }
    }

    @Test(expected = IllegalArgumentException.class)
    public void emptyNumeralIsRejected() {
        Roman.fromRoman("");
    }`),
        ],
      },
      fix: {
        author: 'ivo',
        message: 'Roman: validate input ranges',
        ops: [
          edit(main('Roman.java'), '    public static String toRoman(int number) {\n',
            '    public static String toRoman(int number) {\n        if (number < 1 || number > 3999) throw new IllegalArgumentException("out of range 1..3999: " + number);\n'),
          edit(main('Roman.java'), '    public static int fromRoman(String numeral) {\n',
            '    public static int fromRoman(String numeral) {\n        if (numeral.isEmpty()) throw new IllegalArgumentException("empty numeral");\n'),
        ],
      },
      failingTests: ['org.repairlab.numkit.RomanTest::emptyNumeralIsRejected', 'org.repairlab.numkit.RomanTest::outOfRangeNumbersAreRejected'],
      report: {
        title: 'Roman accepts values it cannot represent',
        body: [
          'The class javadoc says "Roman numerals for 1..3999", but:',
          '',
          '- `Roman.toRoman(0)` returns an empty string and `Roman.toRoman(4000)` returns `MMMM`;',
          '- `Roman.fromRoman("")` returns 0.',
          '',
          'I would expect an IllegalArgumentException in all three cases, like `fromRoman("XIZ")` already does.',
        ].join('\n'),
      },
      defectKinds: ['missing-statement', 'condition'],
    },
  ],
};
