// The drop zone over the whole page: files (or a folder) dragged anywhere onto it are opened.
import { useEffect, useState } from 'preact/hooks';
import { droppedFiles } from '../lib/multi-file.js';

/**
 * @param {(files: File[]) => void} openFiles
 * @param {boolean} [profileOpen] a profile is open: a folder dropped alone without a profile in it
 *   is a side folder of symbols for it (multi-file.js droppedFiles)
 * @returns {boolean} whether files are being dragged over the page
 */
export function useDropZone(openFiles, profileOpen = false) {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (/** @type {DragEvent} */ e) => Array.from(e.dataTransfer?.types || []).includes('Files');
    const onEnter = (/** @type {DragEvent} */ e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      setDragging(true);
    };
    const onOver = (/** @type {DragEvent} */ e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const onLeave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onDrop = (/** @type {DragEvent} */ e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      droppedFiles(e.dataTransfer, profileOpen).then((files) => {
        if (files.length) openFiles(files);
      });
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [openFiles, profileOpen]);
  return dragging;
}
