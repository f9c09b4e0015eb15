// Opening files: one file, several (a dropped folder: the profile, its perf --threads data.N
// files, side files), the bundled sample or ?url=… at start. The bytes show at once (read
// straight from the File); the decoded document follows from the worker.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ByteSource } from '../lib/byte-source.js';
import { namedSideFile, planFiles } from '../lib/multi-file.js';
import { EMBED, URL_PARAM } from './page-params.js';

export const SAMPLE_URL = 'samples/calltree.perf.data';
export const SAMPLE_NAME = 'calltree.perf.data';
// The recorded program, opened with the sample as a side file so its frames carry function names.
export const SAMPLE_BINARY_URL = 'samples/calltree';

/**
 * chosen: the person dropped or chose the files (not the bundled sample, a ?url= or an embedding host's file)
 * @typedef {{label?: string, openName?: string, dataFiles?: File[], sideFiles?: File[], options?: Record<string, string>, chosen?: boolean,
 *   sideFolders?: {folder: string, capped: boolean, offered: number}[]}} Extras
 * stopping: Cancel was pressed while decoding; what was decoded so far is on its way
 * @typedef {'idle'|'loading'|'decoding'|'stopping'|'ready'|'error'|'cancelled'} Status
 */

/**
 * @param {import('../worker/client.js').DecoderClient} client
 * @param {(doc: any) => void} onOpened called with each newly decoded document
 */
export function useOpenFile(client, onOpened) {
  const [status, setStatus] = useState(/** @type {Status} */ ('idle'));
  // bytes decoded of the total, and the samples and record rows decoded so far
  const [progress, setProgress] = useState({ done: 0, total: 0, samples: 0, records: 0 });
  const [pendingName, setPendingName] = useState('');
  const [error, setError] = useState('');
  const [doc, setDoc] = useState(/** @type {any} */ (null));
  const [source, setSource] = useState(/** @type {ByteSource | null} */ (null));
  // bumped when 'tables', 'timeline' or 'account' arrive (each completes its doc in place): the change re-renders the page
  const [, setTablesIn] = useState(0);
  const openSeq = useRef(0);
  const opened = useRef(onOpened);
  opened.current = onOpened;

  const openFile = useCallback(
    /**
     * @param {Blob} file
     * @param {string} name
     * @param {Extras} [extras]
     */
    async (file, name, extras = {}) => {
      const seq = ++openSeq.current;
      setPendingName(extras.label || name);
      setStatus('decoding');
      setError('');
      setProgress({ done: 0, total: file.size, samples: 0, records: 0 });
      // the bytes are shown at once, read straight from the File; records, shading and views
      // follow when the worker has decoded
      const src = new ByteSource(file);
      setDoc(null);
      setSource(src);
      try {
        const msg = await client.open(file, name, {
          dataFiles: (extras.dataFiles || []).map((f) => ({ file: f, name: f.name })),
          sideFiles: (extras.sideFiles || []).map(namedSideFile),
          sideFolders: extras.sideFolders || [],
          options: extras.options || {},
          onProgress: (done, total, samples, records) => {
            if (seq === openSeq.current) setProgress({ done, total, samples, records });
          },
        });
        if (seq !== openSeq.current) return { error: 'superseded by another file' };
        const key = await fileKey(file, name);
        if (seq !== openSeq.current) return { error: 'superseded by another file' };
        const { whenTables, whenTimeline, whenAccount, ...decoded } = msg;
        const next = { ...decoded, file, name: extras.label || name, key, extras: { ...extras, label: extras.label || name, openName: name }, fieldsCache: new Map(), labels: new Map(), tablesError: '' };
        setDoc(next);
        setSource(src);
        setStatus('ready');
        opened.current(next);
        // The record table (records, index, typeNames, composition), then the flame chart's lanes and
        // intervals, then the account, arrive after the flame graph is drawn. They complete this document in
        // place, so nothing keyed on the document (selection, URL state, zoom) sees a new file; views that
        // need them wait for doc.records, doc.lanes or doc.account.
        const complete = (/** @type {any} */ r, /** @type {(r: any) => object} */ parts) => {
          if (!r || seq !== openSeq.current) return;
          if (r.error) next.tablesError = String(r.error);
          else Object.assign(next, parts(r));
          setTablesIn((n) => n + 1);
        };
        whenTables?.then((/** @type {any} */ r) => complete(r, ({ records, index, typeNames, composition, benchTimes }) => ({ records, index, typeNames, composition, tablesBench: benchTimes })));
        whenTimeline?.then((/** @type {any} */ r) => complete(r, ({ lanes, intervals, benchTimes }) => ({ lanes, intervals, timelineBench: benchTimes })));
        whenAccount?.then((/** @type {any} */ r) => complete(r, ({ account, benchTimes }) => ({ account, accountBench: benchTimes })));
        return { ok: msg.ok !== false, summary: msg.summary, diagnostics: (msg.diagnostics || []).length, files: fileRoles(name, extras, msg.sideFileRoles) };
      } catch (err) {
        if (seq !== openSeq.current) return { error: 'superseded by another file' };
        setDoc(null);
        setSource(null);
        if (err && err.cancelled) {
          setStatus('cancelled');
          return { error: 'cancelled' };
        }
        setError(err?.message || String(err));
        setStatus('error');
        return { error: err?.message || String(err) };
      }
    },
    [client],
  );

  /** Several files (a dropped folder, a multi-selection): the profile, its data.N files, side files. */
  const openFiles = useCallback(
    (/** @type {File[] & {sideFolders?: any[]}} */ files) => {
      const plan = planFiles(Array.from(files));
      if (!plan.main) return;
      const sideFolders = files.sideFolders || [];
      const loose = plan.sideFiles.filter((f) => !(/** @type {any} */ (f).profscopeFolder)).length;
      const extra = plan.dataFiles.length + loose;
      const parts = [];
      if (extra) parts.push(`+${extra} file${extra === 1 ? '' : 's'}`);
      if (sideFolders.length) parts.push(`+${sideFolders.length} folder${sideFolders.length === 1 ? '' : 's'}`);
      const label = parts.length ? `${plan.main.name} (${parts.join(', ')})` : plan.main.name;
      openFile(plan.main, plan.main.name, { label, dataFiles: plan.dataFiles, sideFiles: plan.sideFiles, sideFolders, chosen: true });
    },
    [openFile],
  );

  /**
   * The open file again with more side files (a binary, a debug file, a perf archive tarball) and
   * side folders (their files carry `profscopeFolder`; `more.sideFolders` says what each offered).
   */
  const addSideFiles = useCallback(
    (/** @type {any} */ d, /** @type {File[] & {sideFolders?: any[]}} */ more) => {
      const side = [...(d.extras?.sideFiles || []), ...more];
      const sideFolders = [...(d.extras?.sideFolders || []), ...(more.sideFolders || [])];
      const loose = side.filter((f) => !(/** @type {any} */ (f).profscopeFolder)).length;
      const extra = (d.extras?.dataFiles || []).length + loose;
      const name = d.extras?.openName || d.name;
      const parts = [];
      if (extra) parts.push(`+${extra} file${extra === 1 ? '' : 's'}`);
      if (sideFolders.length) parts.push(`+${sideFolders.length} folder${sideFolders.length === 1 ? '' : 's'}`);
      const label = parts.length ? `${name} (${parts.join(', ')})` : name;
      return openFile(d.file, name, { ...d.extras, label, sideFiles: side, sideFolders, chosen: true });
    },
    [openFile],
  );

  /** The open file again, with other decoder options. */
  const reopen = useCallback(
    (/** @type {any} */ d, /** @type {Record<string, string>} */ options) => openFile(d.file, d.extras?.openName || d.name, { ...d.extras, options }),
    [openFile],
  );

  // Cancel: a decode stops where it is and shows what it read (status 'stopping' until it arrives; a
  // decoder that cannot stop in time is terminated and nothing is shown); loading the sample is abandoned.
  const cancel = useCallback(() => {
    if (status === 'decoding') {
      setStatus('stopping');
      client.stopDecoding();
      return;
    }
    openSeq.current++;
    client.stop();
    setStatus('cancelled');
    setDoc(null);
    setSource(null);
  }, [client, status]);

  // the bundled sample, from the page's own origin, when no file was given;
  // ?url=… loads that file instead; ?embed=1 waits for the host's profscope:open
  useEffect(() => {
    let stop = false;
    if (EMBED && !URL_PARAM) return undefined;
    const url = URL_PARAM || SAMPLE_URL;
    const name = URL_PARAM ? nameFromUrl(URL_PARAM) : SAMPLE_NAME;
    setStatus('loading');
    setPendingName(name);
    fetch(url)
      .catch((err) => {
        throw new Error(
          URL_PARAM
            ? `could not fetch ${url} (${err.message || err}); the server must allow this page's origin (CORS) and be reachable`
            : err.message || String(err),
        );
      })
      .then((r) => {
        if (!r.ok) throw new Error(URL_PARAM ? `${url} answered HTTP ${r.status}` : `could not load the sample (${r.status})`);
        return r.blob();
      })
      .then(async (blob) => {
        /** @type {File[]} */
        let sideFiles = [];
        if (!URL_PARAM) {
          // best effort: without the binary the sample still opens, with path+offset names
          const bin = await fetch(SAMPLE_BINARY_URL).then((r) => (r.ok ? r.blob() : null)).catch(() => null);
          if (bin) sideFiles = [new File([bin], 'calltree')];
        }
        if (stop || openSeq.current !== 0) return;
        if (sideFiles.length) openFile(new File([blob], name), name, { label: `${name} (+1 file)`, dataFiles: [], sideFiles });
        else openFile(new File([blob], name), name);
      })
      .catch((err) => {
        if (!stop && openSeq.current === 0) {
          setError(err.message || String(err));
          setStatus('error');
        }
      });
    return () => {
      stop = true;
    };
  }, [openFile]);

  useEffect(() => () => client.stop(), [client]);

  return { status, progress, pendingName, error, setError, doc, source, openFile, openFiles, addSideFiles, reopen, cancel };
}

/**
 * Each file opened and its role: the profile (and its data.N files), then the side files as
 * the core classified them (symbols, jitdump, instr-map, unused).
 * @param {string} name
 * @param {Extras} extras
 * @param {{name: string, role: string}[] | undefined} sideRoles
 */
export function fileRoles(name, extras, sideRoles) {
  const roles = [{ name, role: 'profile' }];
  for (const f of extras.dataFiles || []) roles.push({ name: f.name, role: 'profile' });
  // the core's list: one entry per side file given alone, one per side folder
  if (sideRoles) {
    for (const r of sideRoles) roles.push({ name: r.name, role: r.role || 'unused' });
    return roles;
  }
  for (const f of extras.sideFiles || []) roles.push({ name: f.name, role: 'unused' });
  return roles;
}


/** @param {string} u */
function nameFromUrl(u) {
  try {
    const p = new URL(u, location.href).pathname;
    return decodeURIComponent(p.slice(p.lastIndexOf('/') + 1)) || 'profile';
  } catch {
    return 'profile';
  }
}

/**
 * "name:size:fnv1a32 of the first 4 KiB" — identifies a file for the URL state.
 * @param {Blob} file
 * @param {string} name
 */
export async function fileKey(file, name) {
  let h = 0x811c9dc5;
  try {
    const head = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
    for (let i = 0; i < head.length; i++) {
      h ^= head[i];
      h = Math.imul(h, 0x01000193);
    }
  } catch {
    /* unreadable: the key is name + size */
  }
  return `${name}:${file.size}:${(h >>> 0).toString(16)}`;
}
