// File-system distance (Passerine's localization measure): edges between two files in the directory tree.
import { describe, expect, it } from 'vitest';
import { fileDistance, localizationDistance } from '../../../../worker/experiments/metrics/file-distance.ts';

describe('file distance', () => {
  it('counts edges up to the common directory and down again', () => {
    expect(fileDistance('src/a/X.java', 'src/a/X.java')).toBe(0);
    expect(fileDistance('src/a/X.java', 'src/a/Y.java')).toBe(2); // X → a → Y
    expect(fileDistance('src/a/X.java', 'src/a/b/Y.java')).toBe(3); // X → a → b → Y
    expect(fileDistance('src/a/X.java', 'src/c/Y.java')).toBe(4); // X → a → src → c → Y
    expect(fileDistance('README.md', 'src/main/java/org/demo/Clamp.java')).toBe(7); // README → root → 6 down
    expect(fileDistance('./src/a/X.java', 'src/a/X.java')).toBe(0);
  });

  it('takes, per edited file, the nearest fixed file; min and mean over edited files', () => {
    // edited X (nearest fixed: X, 0) and src/c/Z.java (nearest: src/a/X.java at 4, src/c/W.java at 2 → 2)
    expect(localizationDistance(['src/a/X.java', 'src/c/Z.java'], ['src/a/X.java', 'src/c/W.java'])).toEqual({ min: 0, mean: 1 });
    expect(localizationDistance(['src/c/Z.java'], ['src/a/X.java'])).toEqual({ min: 4, mean: 4 });
    expect(localizationDistance([], ['src/a/X.java'])).toBeNull();
  });
});
