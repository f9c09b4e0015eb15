// Two profiles dropped (or chosen) together are a comparison: A and B, each decoded with the
// side files of the drop (the program binary, an XRay instrumentation map). A perf --threads
// folder (data + data.N) is one profile, not a pair.
import { PROFILE, SIDE } from './multi-file.js';

/**
 * @template {{name: string}} F
 * @param {F[]} files
 * @returns {{a: F, b: F, sideFiles: F[]} | null} null unless exactly two profiles are among them
 */
export function planCompare(files) {
  const list = files.filter(Boolean);
  if (list.some((f) => /^data(\.\d+)?$/.test(f.name))) return null;
  const profiles = list.filter((f) => !SIDE.test(f.name) && PROFILE.test(f.name));
  if (profiles.length !== 2) return null;
  const [a, b] = [...profiles].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return { a, b, sideFiles: list.filter((f) => f !== a && f !== b) };
}
