// The hex view of a decompressed stream (perf -z): when a record inside a COMPRESSED container (or
// one of its fields) is selected, its bytes are in the container's decompressed bytes, not in the
// file at that number. This view asks the worker to decompress the container again, shows those
// bytes with offsets marked z+0x…, highlights the record's, and keeps the container's own
// (compressed) bytes one click away.
import { useEffect, useState } from 'preact/hooks';
import { ByteSource } from '../../lib/byte-source.js';
import { formatBytes, hex } from '../../lib/format.js';
import { RecordKind } from '../../lib/record-kind.js';
import { kidAt, kidsBegin, rowLabel } from '../../lib/records.js';
import { HexView } from './hex-view.jsx';
import { intAt } from '../../lib/int-runs.js';

/**
 * The container's decompressed bytes as a ByteSource, kept per document (doc.streamCache).
 * @param {any} doc
 * @param {any} client
 * @param {number} container
 */
function useStreamSource(doc, client, container) {
  const [state, setState] = useState(/** @type {{container: number, source: ByteSource | null, error: string}} */ ({ container: -1, source: null, error: '' }));
  useEffect(() => {
    doc.streamCache ||= new Map();
    const cached = doc.streamCache.get(container);
    if (cached) {
      setState({ container, source: cached, error: '' });
      return undefined;
    }
    let live = true;
    setState({ container, source: null, error: '' });
    client
      .containerBytes(container)
      .then((/** @type {{bytes: Uint8Array}} */ r) => {
        if (!live) return;
        if (!r.bytes.length) {
          setState({ container, source: null, error: 'its container does not decompress (see Diagnostics)' });
          return;
        }
        const src = new ByteSource(new Blob([r.bytes]), { chunkSize: 64 * 1024, maxChunks: 1024 });
        doc.streamCache.set(container, src);
        setState({ container, source: src, error: '' });
      })
      .catch((/** @type {Error} */ e) => live && setState({ container, source: null, error: String(e.message || e) }));
    return () => {
      live = false;
    };
  }, [doc, client, container]);
  return state.container === container ? state : { container, source: null, error: '' };
}

/**
 * @param {{doc: any, client: any, range: import('../../app/selection-range.js').ByteRange & {stream: {container: number, start: number, end: number}},
 *   scrollNonce: number, onSelect: (sel: any, opts?: any) => void}} props
 */
export function StreamHex({ doc, client, range, scrollNonce, onSelect }) {
  const { container, start, end } = range.stream;
  const { source, error } = useStreamSource(doc, client, container);
  const [cursor, setCursor] = useState(-1);
  const containerName = `${rowLabel(doc, container)} at ${hex(intAt(doc.records.offsets, container))}`;
  const toContainer = (
    <button type="button" class="stream-container" onClick={() => onSelect({ type: 'record', row: container }, { reveal: true })}>
      Compressed bytes of the container
    </button>
  );
  if (!source) {
    return (
      <div class="hex-view" data-testid="stream-hex">
        <div class="pane-title">
          <span>Decompressed</span>
          <span class="hex-status muted" data-testid="hex-selection">
            {error ? `${range.label} · no decompressed bytes: ${error}` : `decompressing ${containerName}…`}
          </span>
          {toContainer}
        </div>
      </div>
    );
  }
  // a byte clicked: the nested record of this container over it
  const onByteClick = (/** @type {number} */ off) => {
    setCursor(off);
    const { offsets, sizes, kinds } = doc.records;
    for (let k = kidsBegin(doc, container), end = kidsBegin(doc, container + 1); k < end; k++) {
      const r = kidAt(doc, k);
      if (intAt(kinds, r) !== RecordKind.Nested) continue;
      if (intAt(offsets, r) <= off && off < intAt(offsets, r) + intAt(sizes, r)) {
        onSelect({ type: 'record', row: r }, { reveal: true });
        return;
      }
    }
  };
  return (
    <div class="stream-hex" data-testid="stream-hex">
      <HexView
        doc={null}
        source={source}
        range={{ start, end, label: range.label, note: `decompressed stream of ${containerName} (${formatBytes(source.size)})` }}
        cursor={cursor}
        scrollNonce={scrollNonce}
        onByteClick={onByteClick}
        title="Decompressed"
        offsetPrefix="z+"
        titleExtra={toContainer}
      />
    </div>
  );
}
