// @ts-check
import { formatBytes, formatInt, plural } from '../../lib/format.js';

/**
 * The Size item: the main file's bytes, with a perf --threads recording's data.N files added (the main
 * file alone holds only the header and features there).
 * @param {number} main
 * @param {number} data bytes of the data files
 * @param {number} files how many
 * @returns {[string, string, string]}
 */
export function sizeItem(main, data, files) {
  if (!files) return ['Size', formatBytes(main), `${formatInt(main)} bytes`];
  return ['Size', formatBytes(main + data), `${formatInt(main + data)} bytes: ${formatInt(main)} in the main file, ${formatInt(data)} in ${plural(files, 'data file')}`];
}
