// Bad input is refused with a message naming the row, the column or the condition, before any arithmetic.
import { describe, expect, it } from 'vitest';
import { cochranQ, friedman, mcnemar, StatisticsInputError, wilcoxon } from '../../../../worker/experiments/statistics/index.ts';

describe('input checks', () => {
  it.each([
    ['a row with the wrong number of columns', () => mcnemar([[1, 0], [1, 0, 1]]), /data\[1\] \(row 2\) has 3 columns but row 1 has 2/],
    ['too few columns for the test', () => friedman([[1, 2], [3, 4]]), /Friedman: data\[0\] \(row 1\) has 2 columns; the test needs .*at least 3 columns/],
    ['two columns exactly', () => wilcoxon([[1, 2, 3]]), /Wilcoxon: .*has 3 columns; .*exactly 2 columns/],
    ['a value that is not a number', () => wilcoxon([[1, 2], [2, 'x']]), /value "x" at data\[1\]\[1\] \(row 2, column 2\) is not a finite number/],
    ['a value that is not 0/1', () => cochranQ([[1, 0], [2, 1]]), /value 2 at data\[1\]\[0\] \(row 2, column 1\) is not 0\/1/],
    ['a row that is not an array', () => mcnemar([[1, 0], 5]), /data\[1\] \(row 2\) is 5, not a row/],
    ['no rows', () => friedman([]), /data has no rows/],
    ['not an array', () => mcnemar({ a: 1 }), /data must be an array of rows .*got \{"a":1\}/],
    ['null in a cell', () => friedman([[1, 2, null]]), /value null at data\[0\]\[2\]/],
  ])('%s', (_what, run, message) => {
    expect(run).toThrow(StatisticsInputError);
    expect(run).toThrow(message);
  });

  it.each([
    ['Wilcoxon with every pair equal', () => wilcoxon([[1, 1], [2, 2]]), /all 2 pairs are equal/],
    ["Cochran's Q with every row agreeing", () => cochranQ([[1, 1], [0, 0]]), /every row all variants agree/],
    ['Friedman with every row tied', () => friedman([[1, 1, 1], [2, 2, 2]]), /every row has all its values equal/],
  ])('an undefined statistic: %s', (_what, run, message) => {
    expect(run).toThrow(StatisticsInputError);
    expect(run).toThrow(message);
  });
});
