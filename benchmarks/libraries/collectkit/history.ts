// collectkit — collection utilities: list helpers, a ring buffer, an LRU cache, int ranges, a counter.
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
const main = (name: string) => `src/main/java/org/repairlab/collect/${name}`;
const test = (name: string) => `src/test/java/org/repairlab/collect/${name}`;

const people = {
  dan: { name: 'Dana Novak', email: 'dana@novak.example', tz: '+0200' },
  eve: { name: 'Evelyn Park', email: 'epark@example.com', tz: '-0700' },
  fin: { name: 'Finn Berg', email: 'finn.berg@example.net', tz: '+0100' },
};

export const collectkit: LibraryDefinition = {
  id: 'collectkit',
  description: 'collection utilities: partition/rotate, ring buffer, LRU cache, int ranges, counter',
  layout: MAVEN_JUNIT4_LAYOUT,
  people,
  start: '2023-09-04T07:30:00Z',
  steps: [
    commit('dan', 'Initial commit', [
      write('README.md', file('README.md')),
      write('pom.xml', file('pom.xml')),
      write('.gitignore', 'target/\n.idea/\n'),
    ]),
    commit('dan', 'Add Lists.partition', [
      write(main('Lists.java'), file('Lists.java')),
      write(test('ListsTest.java'), file('ListsTest.java')),
    ]),
    commit('eve', 'Add IntRange', [
      write(main('IntRange.java'), file('IntRange.java')),
      write(test('IntRangeTest.java'), file('IntRangeTest.java')),
    ]),
    commit('dan', 'Add Lists.rotate', [
      addMembers(main('Lists.java'), `
    /** The list rotated right by {@code distance} positions: rotate([1, 2, 3], 1) is [3, 1, 2]. */
    public static <T> List<T> rotate(List<T> list, int distance) {
        int n = list.size();
        List<T> out = new ArrayList<>(list);
        if (n == 0) {
            return out;
        }
        int k = distance % n;
        for (int i = 0; i < n; i++) {
            out.set((i + k) % n, list.get(i));
        }
        return out;
    }`),
      addMembers(test('ListsTest.java'), `
    @Test
    public void rotateRight() {
        assertEquals(Arrays.asList(4, 5, 1, 2, 3), Lists.rotate(FIVE, 2));
        assertEquals(FIVE, Lists.rotate(FIVE, 5));
        assertEquals(Arrays.asList(5, 1, 2, 3, 4), Lists.rotate(FIVE, 11));
    }`),
    ], { label: 'add-rotate' }),
    commit('eve', 'Add RingBuffer', [
      write(main('RingBuffer.java'), file('RingBuffer.java')),
      write(test('RingBufferTest.java'), file('RingBufferTest.java')),
    ]),
    commit('fin', 'Add LruCache', [
      write(main('LruCache.java'), file('LruCache.java')),
      write(test('LruCacheTest.java'), file('LruCacheTest.java')),
    ]),
    commit('eve', 'IntRange: overlaps and intersect', [
      addMembers(main('IntRange.java'), `
    /** True when the two ranges share at least one value. */
    public boolean overlaps(IntRange other) {
        return start <= other.end && other.start <= end;
    }

    /** The values both ranges contain; an empty range at the later start when they do not overlap. */
    public IntRange intersect(IntRange other) {
        int s = Math.max(start, other.start);
        int e = Math.min(end, other.end);
        return new IntRange(s, Math.max(s, e));
    }`),
      addMembers(test('IntRangeTest.java'), `
    @Test
    public void overlappingRanges() {
        assertTrue(IntRange.of(0, 5).overlaps(IntRange.of(3, 8)));
        assertFalse(IntRange.of(0, 2).overlaps(IntRange.of(6, 8)));
        assertEquals(IntRange.of(3, 5), IntRange.of(0, 5).intersect(IntRange.of(3, 8)));
        assertTrue(IntRange.of(0, 2).intersect(IntRange.of(6, 8)).isEmpty());
    }`),
    ], { label: 'range-overlaps' }),
    commit('dan', 'Add Lists.windows', [
      addMembers(main('Lists.java'), `
    /** Every run of {@code size} consecutive elements: windows([1, 2, 3], 2) is [[1, 2], [2, 3]]. */
    public static <T> List<List<T>> windows(List<T> list, int size) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be positive: " + size);
        }
        List<List<T>> out = new ArrayList<>();
        for (int start = 0; start + size <= list.size(); start++) {
            out.add(Collections.unmodifiableList(new ArrayList<>(list.subList(start, start + size))));
        }
        return out;
    }`),
      addMembers(test('ListsTest.java'), `
    @Test
    public void slidingWindows() {
        assertEquals(Arrays.asList(Arrays.asList(1, 2, 3), Arrays.asList(2, 3, 4), Arrays.asList(3, 4, 5)), Lists.windows(FIVE, 3));
        assertEquals(Collections.emptyList(), Lists.windows(FIVE, 6));
    }`),
    ]),
    commit('eve', 'Add Bag, a counting multiset', [
      write(main('Bag.java'), file('Bag.java')),
      write(test('BagTest.java'), file('BagTest.java')),
    ]),
    commit('fin', 'README: list the classes', [
      edit('README.md', '    mvn test\n', `    mvn test

| class | what |
|---|---|
| Lists | partition, rotate, windows |
| RingBuffer | most recent N elements |
| LruCache | bounded map, least recently used out |
| IntRange | half-open int ranges |
| Bag | counts of equal elements |
`),
    ]),
    commit('dan', 'Add Lists.interleave', [
      addMembers(main('Lists.java'), `
    /** Alternates elements of both lists; the rest of the longer list comes last. */
    public static <T> List<T> interleave(List<T> a, List<T> b) {
        List<T> out = new ArrayList<>(a.size() + b.size());
        int n = Math.max(a.size(), b.size());
        for (int i = 0; i < n; i++) {
            if (i < a.size()) {
                out.add(a.get(i));
            }
            if (i < b.size()) {
                out.add(b.get(i));
            }
        }
        return out;
    }`),
      addMembers(test('ListsTest.java'), `
    @Test
    public void interleave() {
        assertEquals(Arrays.asList(1, 9, 2, 3, 4, 5), Lists.interleave(FIVE, Arrays.asList(9)));
    }`),
    ], { label: 'interleave' }),
    branch('feature/counter'),
    commit('eve', 'Rename Bag to Counter', [
      rename(main('Bag.java'), main('Counter.java')),
      editAll(main('Counter.java'), 'Bag', 'Counter'),
      rename(test('BagTest.java'), test('CounterTest.java')),
      editAll(test('CounterTest.java'), 'Bag', 'Counter'),
      editAll(test('CounterTest.java'), 'bag', 'counter'),
      edit('README.md', '| Bag | counts of equal elements |', '| Counter | counts of equal elements |'),
    ], { branch: 'feature/counter' }),
    commit('eve', 'Counter.mostCommon', [
      edit(main('Counter.java'), 'import java.util.HashMap;\n', 'import java.util.ArrayList;\nimport java.util.HashMap;\nimport java.util.List;\n'),
      addMembers(main('Counter.java'), `
    /** The {@code n} most frequent elements, most frequent first. */
    public List<T> mostCommon(int n) {
        List<Map.Entry<T, Integer>> entries = new ArrayList<>(counts.entrySet());
        entries.sort((x, y) -> Integer.compare(y.getValue(), x.getValue()));
        List<T> out = new ArrayList<>();
        for (int i = 0; i < Math.min(n, entries.size()); i++) {
            out.add(entries.get(i).getKey());
        }
        return out;
    }`),
      addMembers(test('CounterTest.java'), `
    @Test
    public void mostCommonFirst() {
        Counter<String> counter = new Counter<>();
        counter.add("rare");
        counter.add("common", 5);
        counter.add("middle", 2);
        assertEquals(java.util.Arrays.asList("common", "middle"), counter.mostCommon(2));
    }`),
    ], { branch: 'feature/counter' }),
    commit('dan', 'RingBuffer: clear()', [
      edit(main('RingBuffer.java'), 'import java.util.ArrayList;\n', 'import java.util.ArrayList;\nimport java.util.Arrays;\n'),
      addMembers(main('RingBuffer.java'), `
    /** Removes every element. */
    public void clear() {
        Arrays.fill(items, null);
        head = 0;
        size = 0;
    }`),
      addMembers(test('RingBufferTest.java'), `
    @Test
    public void clearEmptiesTheBuffer() {
        RingBuffer<Integer> buffer = new RingBuffer<>(2);
        buffer.add(1);
        buffer.add(2);
        buffer.add(3);
        buffer.clear();
        assertEquals(0, buffer.size());
        buffer.add(4);
        assertEquals(Arrays.asList(4), buffer.toList());
    }`),
    ]),
    merge('feature/counter', 'dan', "Merge pull request #7 from eve/feature/counter\n\nRename Bag to Counter and add mostCommon", 'merge-counter'),
    commit('fin', 'Validate capacities of RingBuffer and LruCache', [
      edit(main('RingBuffer.java'), '    public RingBuffer(int capacity) {\n', `    public RingBuffer(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
`),
      edit(main('LruCache.java'), '    public LruCache(int capacity) {\n', `    public LruCache(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
`),
      addMembers(test('LruCacheTest.java'), `
    @Test(expected = IllegalArgumentException.class)
    public void negativeCapacityIsRejected() {
        new LruCache<String, String>(-1);
    }`),
    ], { label: 'validate-capacity' }),
    commit('dan', 'RingBuffer.peekNewest', [
      addMembers(main('RingBuffer.java'), `
    /** The most recently added element; throws when the buffer is empty. */
    @SuppressWarnings("unchecked")
    public T peekNewest() {
        if (size == 0) {
            throw new java.util.NoSuchElementException("empty buffer");
        }
        return (T) items[(head + size) % items.length];
    }`),
    ], { label: 'ring-peek' }),
    commit('fin', 'LruCache.getOrCompute', [
      edit(main('LruCache.java'), 'import java.util.LinkedHashMap;\n', 'import java.util.LinkedHashMap;\nimport java.util.function.Function;\n'),
      addMembers(main('LruCache.java'), `
    /** The cached value, or computes, caches and returns it. */
    public V getOrCompute(K key, Function<? super K, ? extends V> compute) {
        V value = map.get(key);
        if (value == null) {
            value = compute.apply(key);
            put(key, value);
        }
        return value;
    }`),
      addMembers(test('LruCacheTest.java'), `
    @Test
    public void getOrComputeCaches() {
        LruCache<Integer, String> cache = new LruCache<>(4);
        int[] calls = {0};
        cache.getOrCompute(1, k -> "v" + (++calls[0]));
        assertEquals("v1", cache.getOrCompute(1, k -> "v" + (++calls[0])));
        assertEquals(1, calls[0]);
    }`),
    ]),
    commit('dan', 'RingBuffer.removeOldest for queue-like use', [
      addMembers(main('RingBuffer.java'), `
    /** Removes and returns the oldest element; throws when the buffer is empty. */
    public T removeOldest() {
        if (size == 0) {
            throw new java.util.NoSuchElementException("empty buffer");
        }
        T oldest = get(0);
        items[head] = null;
        head = (head + 1) % items.length;
        return oldest;
    }`),
    ], { label: 'ring-remove' }),
    commit('eve', 'IntRange: toArray', [
      addMembers(main('IntRange.java'), `
    /** The values of the range in order. */
    public int[] toArray() {
        int[] out = new int[size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = start + i;
        }
        return out;
    }`),
      edit(test('IntRangeTest.java'), 'import static org.junit.Assert.assertEquals;\n', 'import static org.junit.Assert.assertArrayEquals;\nimport static org.junit.Assert.assertEquals;\n'),
      addMembers(test('IntRangeTest.java'), `
    @Test
    public void toArrayListsValues() {
        assertArrayEquals(new int[] {4, 5, 6}, IntRange.of(4, 7).toArray());
    }`),
    ], { label: 'range-toarray' }),
    commit('fin', 'Counter: merge counts from another counter', [
      addMembers(main('Counter.java'), `
    /** Adds every count of {@code other} to this counter. */
    public void addAll(Counter<T> other) {
        for (Map.Entry<T, Integer> e : other.counts.entrySet()) {
            add(e.getKey(), e.getValue());
        }
    }`),
      addMembers(test('CounterTest.java'), `
    @Test
    public void addAllMergesCounts() {
        Counter<String> a = new Counter<>();
        a.add("x", 2);
        Counter<String> b = new Counter<>();
        b.add("x");
        b.add("y");
        a.addAll(b);
        assertEquals(3, a.count("x"));
        assertEquals(4, a.total());
    }`),
    ]),
    commit('dan', 'Lists: document that inputs are never modified', [
      edit(main('Lists.java'), '/** Helpers for java.util.List that return new lists and never modify their input. */',
        '/**\n * Helpers for java.util.List. Every method returns a new list and never modifies its input,\n * so they are safe to use on unmodifiable lists.\n */'),
    ]),
    commit('eve', 'Changelog for 1.0.0', [
      write('CHANGELOG.md', '# Changelog\n\n## 1.0.0\n\n- Lists: partition, rotate, windows, interleave\n- RingBuffer, LruCache, IntRange\n- Counter (formerly Bag) with mostCommon and addAll\n'),
    ], { label: 'changelog-1.0.0' }),
    commit('fin', 'Add IntRange.span', [
      addMembers(main('IntRange.java'), `
    /** The smallest range containing both ranges. */
    public IntRange span(IntRange other) {
        return new IntRange(Math.min(start, other.start), Math.max(end, other.end));
    }`),
      addMembers(test('IntRangeTest.java'), `
    @Test
    public void spanCoversBoth() {
        assertEquals(IntRange.of(1, 9), IntRange.of(1, 3).span(IntRange.of(6, 9)));
    }`),
    ]),
    commit('dan', 'Lists.chunkWhile: split where the predicate fails', [
      edit(main('Lists.java'), 'import java.util.List;\n', 'import java.util.List;\nimport java.util.function.BiPredicate;\n'),
      addMembers(main('Lists.java'), `
    /** Splits between neighbours a, b where {@code together.test(a, b)} is false. */
    public static <T> List<List<T>> chunkWhile(List<T> list, BiPredicate<? super T, ? super T> together) {
        List<List<T>> out = new ArrayList<>();
        List<T> current = new ArrayList<>();
        for (T item : list) {
            if (!current.isEmpty() && !together.test(current.get(current.size() - 1), item)) {
                out.add(current);
                current = new ArrayList<>();
            }
            current.add(item);
        }
        if (!current.isEmpty()) {
            out.add(current);
        }
        return out;
    }`),
      addMembers(test('ListsTest.java'), `
    @Test
    public void chunkWhileConsecutive() {
        assertEquals(Arrays.asList(Arrays.asList(1, 2), Arrays.asList(4), Arrays.asList(6, 7)),
            Lists.chunkWhile(Arrays.asList(1, 2, 4, 6, 7), (a, b) -> b == a + 1));
    }`),
    ]),
    commit('eve', 'RingBuffer: isEmpty', [
      addMembers(main('RingBuffer.java'), `
    public boolean isEmpty() {
        return size == 0;
    }`),
    ]),
    commit('fin', 'LruCache: remove and clear', [
      addMembers(main('LruCache.java'), `
    public V remove(K key) {
        return map.remove(key);
    }

    public void clear() {
        map.clear();
    }`),
      addMembers(test('LruCacheTest.java'), `
    @Test
    public void removeAndClear() {
        LruCache<String, Integer> cache = new LruCache<>(3);
        cache.put("a", 1);
        cache.put("b", 2);
        assertEquals(Integer.valueOf(1), cache.remove("a"));
        cache.clear();
        assertEquals(0, cache.size());
    }`),
    ]),
    commit('dan', 'Bump version to 1.1.0-SNAPSHOT', [edit('pom.xml', '<version>0.1.0-SNAPSHOT</version>', '<version>1.1.0-SNAPSHOT</version>')]),
    commit('dan', 'RingBuffer: toString', [
      addMembers(main('RingBuffer.java'), `
    @Override
    public String toString() {
        return toList().toString();
    }`),
    ]),
    commit('fin', 'Lists.partition: example in the javadoc', [
      edit(main('Lists.java'), '    /** Consecutive sublists of {@code size} elements; the last one may be shorter. */',
        '    /** Consecutive sublists of {@code size} elements; the last one may be shorter: partition([1, 2, 3], 2) is [[1, 2], [3]]. */'),
    ]),
    commit('eve', 'Counter: toString lists counts', [
      addMembers(main('Counter.java'), `
    @Override
    public String toString() {
        return counts.toString();
    }`),
    ]),
    commit('fin', 'README: ranges example', [
      edit('README.md', '| Counter | counts of equal elements |\n', '| Counter | counts of equal elements |\n\n    IntRange.of(0, 5).intersect(IntRange.of(3, 8)); // [3, 5)\n'),
    ], { label: 'tip' }),
  ],
  bugs: [
    {
      id: 'collectkit-1',
      at: 'changelog-1.0.0',
      introducedBy: ['range-overlaps'],
      tests: {
        author: 'fin',
        message: 'IntRange: test ranges that touch',
        ops: [
          addMembers(test('IntRangeTest.java'), `
    @Test
    public void adjacentRangesDoNotOverlap() {
        assertFalse(IntRange.of(0, 5).overlaps(IntRange.of(5, 8)));
        assertFalse(IntRange.of(5, 8).overlaps(IntRange.of(0, 5)));
    }`),
        ],
      },
      fix: {
        author: 'eve',
        message: 'IntRange.overlaps: ranges are half-open',
        ops: [edit(main('IntRange.java'), 'return start <= other.end && other.start <= end;', 'return start < other.end && other.start < end;')],
      },
      failingTests: ['org.repairlab.collect.IntRangeTest::adjacentRangesDoNotOverlap'],
      report: {
        title: 'IntRange.of(0,5).overlaps(IntRange.of(5,8)) is true',
        body: 'Ranges are half-open, so these two only touch.',
      },
      defectKinds: ['operator'],
    },
    {
      id: 'collectkit-2',
      at: 'interleave',
      introducedBy: ['add-rotate'],
      tests: {
        author: 'eve',
        message: 'Lists: test rotating to the left',
        ops: [
          addMembers(test('ListsTest.java'), `
    @Test
    public void rotateLeftWithNegativeDistance() {
        assertEquals(Arrays.asList(2, 3, 4, 5, 1), Lists.rotate(FIVE, -1));
        assertEquals(Arrays.asList(3, 4, 5, 1, 2), Lists.rotate(FIVE, -7));
    }`),
        ],
      },
      fix: {
        author: 'dan',
        message: 'Lists.rotate: support negative distances',
        ops: [edit(main('Lists.java'), '        int k = distance % n;\n', '        int k = distance % n;\n        if (k < 0) {\n            k += n;\n        }\n')],
      },
      failingTests: ['org.repairlab.collect.ListsTest::rotateLeftWithNegativeDistance'],
      report: {
        title: 'Lists.rotate throws IndexOutOfBoundsException for negative distance',
        body: [
          'The javadoc of `Lists.rotate` does not say the distance must be positive, and `Collections.rotate` accepts negative',
          'distances (rotate left), so I expected the same here.',
          '',
          '```java',
          'List<Integer> l = Arrays.asList(1, 2, 3, 4, 5);',
          'Lists.rotate(l, -1);',
          '```',
          '',
          'Expected: `[2, 3, 4, 5, 1]`',
          '',
          'Actual:',
          '',
          '```',
          'java.lang.IndexOutOfBoundsException: Index -1 out of bounds for length 5',
          '    at java.base/java.util.ArrayList.set(ArrayList.java:441)',
          '    at org.repairlab.collect.Lists.rotate(Lists.java)',
          '```',
        ].join('\n'),
      },
      defectKinds: ['missing-statement', 'condition'],
    },
    {
      id: 'collectkit-3',
      at: 'range-toarray',
      introducedBy: ['ring-peek'],
      tests: {
        author: 'eve',
        message: 'RingBuffer: tests for peekNewest and removeOldest',
        ops: [
          addMembers(test('RingBufferTest.java'), `
    @Test
    public void peekNewestIsTheLastAdded() {
        RingBuffer<Integer> buffer = new RingBuffer<>(3);
        buffer.add(1);
        buffer.add(2);
        assertEquals(Integer.valueOf(2), buffer.peekNewest());
    }

    @Test
    public void removeOldestShrinksTheBuffer() {
        RingBuffer<String> buffer = new RingBuffer<>(3);
        buffer.add("a");
        buffer.add("b");
        buffer.add("c");
        assertEquals("a", buffer.removeOldest());
        assertEquals(2, buffer.size());
        assertEquals(Arrays.asList("b", "c"), buffer.toList());
    }`),
        ],
      },
      fix: {
        author: 'dan',
        message: 'RingBuffer: fix peekNewest index and keep size in step in removeOldest',
        ops: [
          edit(main('RingBuffer.java'), 'return (T) items[(head + size) % items.length];', 'return (T) items[(head + size - 1) % items.length];'),
          edit(main('RingBuffer.java'), '        head = (head + 1) % items.length;\n        return oldest;\n', '        head = (head + 1) % items.length;\n        size--;\n        return oldest;\n'),
        ],
      },
      failingTests: ['org.repairlab.collect.RingBufferTest::peekNewestIsTheLastAdded', 'org.repairlab.collect.RingBufferTest::removeOldestShrinksTheBuffer'],
      report: {
        title: 'RingBuffer queue methods are broken',
        body: [
          'Using RingBuffer as a bounded queue:',
          '',
          '1. `peekNewest()` on a buffer holding [1, 2] (capacity 3) returns null instead of 2.',
          '2. After `removeOldest()` the size does not go down, and `toList()` then contains a null at the end.',
        ].join('\n'),
      },
      defectKinds: ['operator', 'missing-statement'],
    },
    {
      id: 'collectkit-4',
      at: 'tip',
      introducedBy: ['validate-capacity'],
      tests: {
        author: 'dan',
        message: 'Tests: zero capacity',
        ops: [
          addMembers(test('RingBufferTest.java'), `
    @Test(expected = IllegalArgumentException.class)
    public void zeroCapacityIsRejected() {
        new RingBuffer<String>(0);
    }`),
          addMembers(test('LruCacheTest.java'), `
    @Test(expected = IllegalArgumentException.class)
    public void zeroCapacityIsRejected() {
        new LruCache<String, String>(0);
    }`),
        ],
      },
      fix: {
        author: 'fin',
        message: 'Reject zero capacities, as the error message says',
        ops: [
          edit(main('RingBuffer.java'), 'if (capacity < 0) {', 'if (capacity < 1) {'),
          edit(main('LruCache.java'), 'if (capacity < 0) {', 'if (capacity < 1) {'),
        ],
      },
      failingTests: ['org.repairlab.collect.LruCacheTest::zeroCapacityIsRejected', 'org.repairlab.collect.RingBufferTest::zeroCapacityIsRejected'],
      report: {
        title: 'Capacity 0 accepted by RingBuffer and LruCache',
        body: [
          '`new RingBuffer<>(0)` is accepted even though the check says "capacity must be positive"; the first `add` then',
          'fails with `ArithmeticException: / by zero`. `new LruCache<>(0)` is also accepted and silently caches nothing.',
          'Both should throw IllegalArgumentException up front.',
        ].join('\n'),
      },
      defectKinds: ['literal', 'condition'],
    },
  ],
};
