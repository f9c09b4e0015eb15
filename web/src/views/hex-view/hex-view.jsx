// Hex view: 16 bytes a row, virtualised, bytes read lazily from the File in chunks.
// Record boundaries are shaded by record category (alternate tints per record);
// the selection (a record or a field) is highlighted; a value inspector shows the
// little-endian integers at the hovered byte (else the cursor).
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useVirtual } from '../../lib/virtual.js';
import { byteAscii, byteHex, formatInt, hex, hexPad, offsetWidth } from '../../lib/format.js';
import { category, leavesInRange, rowDepth } from '../../lib/records.js';
import { GotoOffset } from './goto-offset.jsx';
import './hex-view.css';
import { intAt } from '../../lib/int-runs.js';

const ROW_H = 20;
const PER_ROW = 16;

/**
 * @param {{doc: any, source: import('../../lib/byte-source.js').ByteSource,
 *   range: {start: number, end: number, label?: string, note?: string} | null, (start -1: a selection whose bytes are in another file)
 *   cursor: number, scrollNonce: number, onByteClick: (off: number) => void}} props
 */
export function HexView({ doc, source, range, cursor, scrollNonce, onByteClick, onFollow, onBack, canBack, hoverRange, title = 'Hex', offsetPrefix = '', titleExtra = null, gotoRef = undefined }) {
  const size = source.size;
  const rows = Math.ceil(size / PER_ROW);
  const v = useVirtual(rows, ROW_H);
  const [, setTick] = useState(0);
  const [hover, setHover] = useState(-1);
  const width = offsetWidth(size);

  // re-render when chunks arrive (also those that arrived before this effect subscribed)
  const renderedVersion = source.version;
  useEffect(() => {
    const off = source.subscribe(() => setTick((t) => t + 1));
    if (source.version !== renderedVersion) setTick((t) => t + 1);
    return off;
  }, [source]);

  // scroll the selection into view when asked to
  const lastNonce = useRef(0);
  useLayoutEffect(() => {
    if (!scrollNonce || scrollNonce === lastNonce.current || !range || range.start < 0) return;
    lastNonce.current = scrollNonce;
    const r = Math.floor(Math.min(range.start, Math.max(0, size - 1)) / PER_ROW);
    if (r < v.first + 1 || r > v.last - 3) v.scrollToIndex(r, 'center');
  }, [scrollNonce, range, size]);

  const a = v.first * PER_ROW;
  const b = Math.min(size, v.last * PER_ROW);

  // record shading for the visible bytes (none until the record table has arrived)
  const records = doc?.records;
  const shade = useMemo(() => {
    const out = new Int32Array(Math.max(0, b - a)).fill(-1);
    if (!doc || !records || b <= a) return out;
    const { offsets, sizes } = doc.records;
    const paint = (r) => {
      const s = Math.max(a, intAt(offsets, r));
      const e = Math.min(b, intAt(offsets, r) + intAt(sizes, r));
      for (let p = s; p < e; p++) if (out[p - a] < 0) out[p - a] = r;
    };
    for (const r of leavesInRange(doc, a, b)) paint(r);
    // bytes of containers (an attr whose ids live elsewhere, gaps in the data section), deepest first
    const { containers } = doc.index;
    const over = [];
    for (let k = 0; k < containers.length && k < 100000; k++) {
      const r = containers[k];
      if (intAt(offsets, r) < b && intAt(offsets, r) + intAt(sizes, r) > a) over.push([rowDepth(doc, r), r]);
    }
    over.sort((x, y) => y[0] - x[0]);
    for (const [, r] of over) paint(r);
    return out;
  }, [doc, records, a, b]);

  const rowEls = [];
  const selStart = range ? range.start : -1;
  const selEnd = range ? range.end : -1;
  for (let r = v.first; r < v.last; r++) {
    const base = r * PER_ROW;
    const hexCells = [];
    const asciiCells = [];
    for (let k = 0; k < PER_ROW; k++) {
      const off = base + k;
      if (off >= size) {
        hexCells.push(<span class={`hb blank${k === 8 ? ' gap' : ''}`} key={k} />);
        asciiCells.push(<span class="ab blank" key={k} />);
        continue;
      }
      const byte = source.byteAt(off);
      const rec = shade[off - a];
      let cls = '';
      if (rec >= 0) {
        const { kinds, types, offsets } = doc.records;
        cls += ` k${category(intAt(kinds, rec), intAt(types, rec))} p${rec & 1}`;
        if (intAt(offsets, rec) === off) cls += ' rs';
      }
      if (off >= selStart && off < selEnd) {
        cls += ' sel';
        if (off === selStart) cls += ' sel-first';
        if (off === selEnd - 1) cls += ' sel-last';
      }
      if (hoverRange && off >= hoverRange.start && off < hoverRange.end) cls += ' fhov';
      if (off === cursor) cls += ' cur';
      if (off === hover) cls += ' hov';
      hexCells.push(
        <span class={`hb${cls}${k === 8 ? ' gap' : ''}`} data-off={off} key={k}>
          {byte < 0 ? '··' : byteHex(byte)}
        </span>,
      );
      asciiCells.push(
        <span class={`ab${cls}`} data-off={off} key={k}>
          {byte < 0 ? ' ' : byteAscii(byte)}
        </span>,
      );
    }
    rowEls.push(
      <div class="hex-row" key={r}>
        <span class="hex-off">
          {offsetPrefix}
          {hexPad(base, width)}
        </span>
        <span class="hex-bytes">{hexCells}</span>
        <span class="hex-ascii">{asciiCells}</span>
      </div>,
    );
  }

  const offFromEvent = (e) => {
    const t = e.target.closest?.('[data-off]');
    return t ? Number(t.getAttribute('data-off')) : -1;
  };

  const inspectAt = hover >= 0 ? hover : cursor >= 0 ? cursor : selStart;
  return (
    <div class="hex-view">
      <div class="pane-title">
        <span>{title}</span>
        <span class="hex-status" aria-live="polite" data-testid="hex-selection">
          {range && range.start < 0 ? (
            <>
              {range.label}
              {range.note ? <span class="muted"> · {range.note}</span> : null}
            </>
          ) : range ? (
            <>
              Selection <b>{offsetPrefix + hex(range.start)}</b>–<b>{offsetPrefix + hex(Math.max(range.start, range.end - 1))}</b> (
              {formatInt(range.end - range.start)} bytes){range.label ? ` · ${range.label}` : ''}
              {range.note ? <span class="muted"> · {range.note}</span> : null}
            </>
          ) : (
            <span class="muted">Click a byte to select its record</span>
          )}
        </span>
        {titleExtra}
        {gotoRef ? <GotoOffset size={size} onGo={onByteClick} inputRef={gotoRef} /> : null}
      </div>
      {source.error ? (
        <div class="hex-error" role="alert" data-testid="hex-error">
          Some bytes can no longer be read ({source.error}): the file was changed or removed since it was opened. Open it again to see them.
        </div>
      ) : null}
      <div
        class="hex-scroll"
        ref={v.ref}
        onScroll={v.onScroll}
        onClick={(e) => {
          const off = offFromEvent(e);
          if (off >= 0) onByteClick(off);
        }}
        onMouseMove={(e) => {
          const off = offFromEvent(e);
          if (off !== hover) setHover(off);
        }}
        onMouseLeave={() => setHover(-1)}
        aria-label="Bytes"
      >
        <div class="hex-spacer" style={{ height: `${v.height}px` }}>
          <div class="hex-rows" style={{ transform: `translateY(${v.top}px)` }}>
            {rowEls}
          </div>
        </div>
      </div>
      <Inspector
        source={source}
        off={inspectAt}
        hovering={hover >= 0}
        bigEndian={/big/i.test(String(doc?.summary?.byte_order ?? ''))}
        onFollow={onFollow}
        onBack={onBack}
        canBack={canBack}
      />
    </div>
  );
}

function Inspector({ source, off, hovering, bigEndian, onFollow, onBack, canBack }) {
  if (off == null || off < 0 || off >= source.size) {
    return (
      <div class="hex-inspector muted" data-testid="hex-inspector">
        Hover a byte to see its value
      </div>
    );
  }
  const bytes = source.peek(off, 32);
  const at = `${hex(off)}${hovering ? '' : ' (cursor)'}`;
  const orders = bigEndian ? [false, true] : [true, false];
  const rows = bytes ? orders.map((le) => [le ? 'LE' : 'BE', valueCells(bytes, le)]) : [];
  const str = bytes ? stringAt(bytes) : '';
  return (
    <div class="hex-inspector" data-testid="hex-inspector" aria-label="Value under the cursor">
      <div class="insp-line">
        <span class="insp-cell">
          <span class="insp-k">at</span>
          <span class="insp-v">{at}</span>
        </span>
        {bytes ? (
          <span class="insp-cell" data-testid="insp-string">
            <span class="insp-k">string</span>
            <span class="insp-v">“{str}”</span>
          </span>
        ) : (
          <span class="muted">{source.unreadable(off, 32) ? 'cannot be read' : 'loading…'}</span>
        )}
        {rows.length ? (
          <>
            <button
              type="button"
              class="insp-follow"
              title="Jump to the offset this u64 (file byte order) names"
              onClick={() => onFollow?.(Number(rows[0][1].u64raw))}
              disabled={!(Number(rows[0][1].u64raw) < source.size)}
            >
              Follow u64 → {Number(rows[0][1].u64raw) < source.size ? hex(Number(rows[0][1].u64raw)) : 'outside the file'}
            </button>
            <button type="button" class="insp-follow" onClick={onBack} disabled={!canBack} title="Back to where you followed from (Backspace)">
              ← Back
            </button>
          </>
        ) : null}
      </div>
      {rows.map(([name, cells]) => (
        <div class="insp-line" key={name} data-order={name}>
          <span class="insp-k insp-order">{name}{name === (bigEndian ? 'BE' : 'LE') ? ' (file)' : ''}</span>
          {cells.list.map(([k, val]) => (
            <span class="insp-cell" key={k} data-k={k}>
              <span class="insp-k">{k}</span>
              <span class="insp-v">{val}</span>
            </span>
          ))}
        </div>
      ))}
    </div>
  );
}

/** u8…u64, i8…i64, f32, f64 of the bytes at the start of `bytes` in one byte order. */
export function valueCells(bytes, le) {
  const buf = new Uint8Array(8);
  buf.set(bytes.subarray(0, 8));
  const dv = new DataView(buf.buffer);
  const n = Math.min(8, bytes.length);
  const dash = '–';
  const u64 = n >= 8 ? dv.getBigUint64(0, le) : null;
  const list = [
    ['u8', String(dv.getUint8(0))],
    ['i8', String(dv.getInt8(0))],
    ['u16', n >= 2 ? String(dv.getUint16(0, le)) : dash],
    ['i16', n >= 2 ? String(dv.getInt16(0, le)) : dash],
    ['u32', n >= 4 ? String(dv.getUint32(0, le)) : dash],
    ['i32', n >= 4 ? String(dv.getInt32(0, le)) : dash],
    ['u64', u64 != null ? String(u64) : dash],
    ['i64', n >= 8 ? String(dv.getBigInt64(0, le)) : dash],
    ['hex64', u64 != null ? '0x' + u64.toString(16) : dash],
    ['f32', n >= 4 ? fmtFloat(dv.getFloat32(0, le)) : dash],
    ['f64', n >= 8 ? fmtFloat(dv.getFloat64(0, le)) : dash],
  ];
  return { list, u64raw: u64 != null ? u64 : -1n };
}

function fmtFloat(x) {
  if (!Number.isFinite(x)) return String(x);
  if (x !== 0 && (Math.abs(x) < 1e-6 || Math.abs(x) >= 1e15)) return x.toExponential(6);
  return String(Number(x.toPrecision(9)));
}

/** Printable text at the start of `bytes` (UTF-8 up to a NUL, 32 bytes at most; others as \xNN). */
export function stringAt(bytes) {
  let end = bytes.indexOf(0);
  if (end < 0) end = bytes.length;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, end));
  return text.replace(/[\u0000-\u001f\u007f\ufffd]/g, (c) => (c === '\ufffd' ? '\\x??' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}
