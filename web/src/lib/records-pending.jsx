// What a view that needs the record table shows while it is on its way (the worker sends it
// right after the flame graph's data: 'records', client.js), or when making it failed.

/** @param {{doc: any, purpose?: string}} props */
export function RecordsPending({ doc, purpose = '' }) {
  const n = Number(doc.summary?.records);
  const count = Number.isFinite(n) && n > 0 ? `${n.toLocaleString('en-US')} ` : '';
  return (
    <p class="records-pending muted" data-testid="records-pending">
      {doc.recordsError ? `The record table could not be made: ${doc.recordsError}` : `Indexing ${count}records${purpose ? ` ${purpose}` : ''}…`}
    </p>
  );
}
