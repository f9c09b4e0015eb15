// What the page's own URL asks for: ?embed=1 (inside another page), ?url=… (open that file),
// ?origins=… (who may drive an embedded page).
const PARAMS = new URLSearchParams(location.search);
export const EMBED = PARAMS.get('embed') === '1';
export const URL_PARAM = PARAMS.get('url') || '';

/**
 * Origins whose profscope:* messages are obeyed: this page's own origin, those listed in
 * ?origins=a,b (exact origins, or * for any), and window.PROFSCOPE_ALLOWED_ORIGINS
 * (an array a deployment can set in a script before the app).
 */
export function allowedOrigins() {
  const set = new Set([location.origin]);
  for (const o of (PARAMS.get('origins') || '').split(',')) if (o.trim()) set.add(o.trim());
  const g = /** @type {any} */ (window).PROFSCOPE_ALLOWED_ORIGINS;
  if (Array.isArray(g)) for (const o of g) set.add(String(o));
  return set;
}
