// State that belongs to one owner (the open document, the current analysis): when the owner
// changes it reads as its initial value again, in the same render, so a view never sees the
// new owner with the old owner's state (a node of the previous call tree, a row of the
// previous file) and no effect has to reset it.
import { useCallback, useRef, useState } from 'preact/hooks';

/**
 * @template O, T
 * @param {O} owner
 * @param {(owner: O) => T} initial the value for a new owner (made once per owner)
 * @returns {[T, (v: T | ((prev: T) => T)) => void]}
 */
export function useOwnedState(owner, initial) {
  const fresh = useRef(/** @type {{owner: O, value: T} | null} */ (null));
  const initialFor = (/** @type {O} */ o) => {
    if (!fresh.current || fresh.current.owner !== o) fresh.current = { owner: o, value: initial(o) };
    return fresh.current.value;
  };
  const [state, setState] = useState(() => ({ owner, value: initialFor(owner) }));
  const ownerRef = useRef(owner);
  ownerRef.current = owner;
  const initialForRef = useRef(initialFor);
  initialForRef.current = initialFor;
  const value = state.owner === owner ? state.value : initialFor(owner);
  const set = useCallback((/** @type {T | ((prev: T) => T)} */ v) => {
    setState((prev) => {
      const o = ownerRef.current;
      const base = prev.owner === o ? prev.value : initialForRef.current(o);
      return { owner: o, value: typeof v === 'function' ? /** @type {(p: T) => T} */ (v)(base) : v };
    });
  }, []);
  return [value, set];
}
