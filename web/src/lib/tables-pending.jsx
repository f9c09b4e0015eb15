// What a view shows while the tables it needs are on their way (the worker sends them right after the
// flame graph's data: 'tables', client.js), or when making them failed: the record table (record tree,
// composition), the flame chart's lanes and an XRay log's account (Functions).

/** @param {{doc: any, text: string, testid: string}} props */
function Pending({ doc, text, testid }) {
  return (
    <p class="tables-pending muted" data-testid={testid}>
      {doc.tablesError ? `The tables could not be made: ${doc.tablesError}` : text}
    </p>
  );
}

/** @param {{doc: any, purpose?: string}} props */
export function RecordsPending({ doc, purpose = '' }) {
  const n = Number(doc.summary?.records);
  const count = Number.isFinite(n) && n > 0 ? `${n.toLocaleString('en-US')} ` : '';
  return <Pending doc={doc} testid="records-pending" text={`Indexing ${count}records${purpose ? ` ${purpose}` : ''}…`} />;
}

/** @param {{doc: any}} props */
export function LanesPending({ doc }) {
  const n = doc.sampleRows ?? 0;
  return <Pending doc={doc} testid="lanes-pending" text={`Laying out ${n.toLocaleString('en-US')} ${doc.summary?.format === 'xray' ? 'calls' : 'samples'} by thread…`} />;
}

/** @param {{doc: any}} props */
export function AccountPending({ doc }) {
  const n = doc.sampleRows ?? 0;
  return <Pending doc={doc} testid="account-pending" text={`Accounting ${n.toLocaleString('en-US')} calls per function…`} />;
}
