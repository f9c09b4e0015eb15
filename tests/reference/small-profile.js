// A small profile in the columns the worker reads (web/src/worker/session-columns.js), shared by
// the tests of the reference aggregation and of the worker's call-node helpers.
// funcs 0 main, 1 a, 2 b, 3 a (same name as 1), 4 libc_f, 5 libc_g
// stacks (prefix tree): 0 main; 1 main>a; 2 main>a>b; 3 main>a>b>a(func 3); 4 main>libc_f; 5 main>libc_f>libc_g
export const strings = ['main', 'a', 'b', 'libc_f', 'libc_g'];
export function profile() {
  return {
    funcNames: Int32Array.from([0, 1, 2, 1, 3, 4]),
    funcMappings: Int32Array.from([0, 0, 0, 0, 1, 1]),
    frameFuncs: Int32Array.from([0, 1, 2, 3, 4, 5]),
    frameMappings: Int32Array.from([0, 0, 0, 0, 1, 1]),
    frameAddresses: BigUint64Array.from([0x100n, 0x200n, 0x300n, 0x210n, 0x7000n, 0x7100n]),
    stackFrames: Int32Array.from([0, 1, 2, 3, 4, 5]),
    stackPrefixes: Int32Array.from([-1, 0, 1, 2, 0, 4]),
    // samples: 0:main>a>b 1:main>a>b>a 2:main>a 3:main>libc_f>libc_g 4:main>a>b (thread 1) 5: empty stack
    sampleStacks: Int32Array.from([2, 3, 1, 5, 2, -1]),
    sampleThreads: Int32Array.from([0, 0, 0, 0, 1, 0]),
    sampleCpus: Int32Array.from([0, 1, 0, 1, 0, 0]),
    sampleEvents: Int32Array.from([0, 0, 0, 0, 0, 0]),
    sampleTimes: Float64Array.from([10, 20, 30, 40, 15, 50]),
    sampleWeights: Float64Array.from([1, 1, 1, 1, 1, 1]),
    sampleRecords: Int32Array.from([0, 1, 2, 3, 4, 5]),
  };
}
export const mappings = [{ path: '/bin/app' }, { path: '/lib/libc.so.6' }];

