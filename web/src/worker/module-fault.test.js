import { describe, expect, it } from 'vitest';
import { isModuleFault, moduleFaultMessage } from './module-fault.js';

describe('module faults', () => {
  it('a trap, an abort and a stack overflow inside the module leave it unusable; other errors do not', () => {
    expect(isModuleFault(new WebAssembly.RuntimeError('Aborted()'))).toBe(true);
    let overflow;
    const deep = (n) => (n ? deep(n + 1) + 1 : 0);
    try {
      deep(1);
    } catch (e) {
      overflow = e;
    }
    expect(overflow).toBeInstanceOf(RangeError);
    expect(isModuleFault(overflow)).toBe(true);
    expect(isModuleFault(new Error('bad option'))).toBe(false);
    expect(isModuleFault('text')).toBe(false);
    expect(isModuleFault(undefined)).toBe(false);
  });
  it('says why', () => {
    expect(moduleFaultMessage(new RangeError('Maximum call stack size exceeded'), 'Maximum call stack size exceeded')).toBe(
      'the decoder stopped: Maximum call stack size exceeded (nested too deeply for the stack); open the file again or another one');
    expect(moduleFaultMessage(new WebAssembly.RuntimeError('Aborted()'), 'Aborted()')).toBe(
      'the decoder stopped: Aborted() (out of memory?); open the file again or another one');
  });
});
