// The sandwich of a function: its callers (inverted) and callees under the current options,
// aggregated by the worker; owned by the current analysis.
import { useCallback } from 'preact/hooks';
import { useOwnedState } from './owned-state.js';

/**
 * @param {{analysis: any, opts: any, client: import('../worker/client.js').DecoderClient,
 *   showTab: () => void, onError: (message: string) => void}} p
 */
export function useSandwich({ analysis, opts, client, showTab, onError }) {
  const [sandwich, setSandwich] = useOwnedState(analysis, () => /** @type {any} */ (null));
  const openSandwich = useCallback(
    async (/** @type {number} */ func) => {
      showTab();
      try {
        const r = await client.sandwich(opts, func);
        setSandwich({ func, names: r.names, ...r.sandwich });
      } catch (err) {
        if (!err?.cancelled) onError(err?.message || String(err));
      }
    },
    [client, opts],
  );
  return { sandwich, openSandwich };
}
