// @ts-check
// Colour of a frame in the differential flame graph: red grew, blue shrank (B - A of its
// total), intensity by the size of the change against the largest change in the graph;
// no change is a neutral grey (FlameGraph's difference colours, with a grey middle).

/**
 * @param {number} delta totalB - totalA
 * @param {number} maxAbs the largest |delta| of the graph
 * @param {boolean} dark
 */
export function diffColor(delta, maxAbs, dark) {
  if (!delta || !(maxAbs > 0)) return dark ? 'hsl(220, 6%, 34%)' : 'hsl(220, 8%, 88%)';
  const t = Math.min(1, Math.sqrt(Math.abs(delta) / maxAbs));
  const hue = delta > 0 ? 0 : 216;
  const sat = 45 + 40 * t;
  const light = dark ? 30 + 12 * t : 86 - 30 * t;
  return `hsl(${hue}, ${sat.toFixed(0)}%, ${light.toFixed(0)}%)`;
}

/**
 * "+12 (+30.0%)", "-3 (-100.0%)", "+5 (new)", "0".
 * @param {number} a
 * @param {number} b
 */
export function deltaText(a, b) {
  const d = b - a;
  if (!d) return '0';
  const sign = d > 0 ? '+' : '−';
  const pct = a ? `${sign}${Math.abs((100 * d) / a).toFixed(1)}%` : 'new';
  return `${sign}${Math.abs(d).toLocaleString('en-US')} (${pct})`;
}
