// The mark of a function DWARF says was inlined into its caller (perf script's "(inlined)"):
// `how` is the worker's funcInlined value (1: at every frame, 2: at some).

/** @param {{how?: number}} props */
export function InlinedTag({ how }) {
  if (!how) return null;
  return (
    <span
      class="tag-inlined"
      data-testid="inlined-tag"
      title={how === 1
        ? 'inlined: DWARF says this function was inlined into its caller, no call took place (perf script marks such frames "(inlined)")'
        : 'inlined at some of its call sites, called at others (DWARF)'}
    >
      {how === 1 ? 'inlined' : 'partly inlined'}
    </span>
  );
}

/** The same as text, for canvas tooltips. @param {number | undefined} how */
export function inlinedText(how) {
  return how === 1 ? 'inlined into its caller (DWARF)' : how === 2 ? 'inlined at some call sites (DWARF)' : '';
}
