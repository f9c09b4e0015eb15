# perf script -s perf_fold.py [OUT_PREFIX]
# Folds perf's own resolved callchains (DWARF unwinding, inline frames and
# context handling are perf's: the nodes of sample['callchain'] through perf's
# Python scripting API) into one line per distinct stack, root first:
#   OUT_PREFIX_addrs.txt  "0xROOT;...;0xLEAF COUNT"  (absolute node ips)
#   OUT_PREFIX_sym.txt    "root;...;leaf COUNT"      (symbol names, [unknown] when none)
# A sample without a callchain folds to its own ip. Prints
# "perf_fold: N samples, events: E1, E2" on stderr.
# (Written for profscope's test data; it reproduces the shared corpus's
# folded_addrs.txt of the dwarf cases byte for byte.)
import collections
import sys

addrs = collections.Counter()
syms = collections.Counter()
events = []
count = 0


def process_event(param_dict):
    global count
    count += 1
    ev = param_dict.get('ev_name', '')
    if ev not in events:
        events.append(ev)
    chain = param_dict.get('callchain') or []
    if chain:
        ips = [node['ip'] for node in chain]
        names = [(node.get('sym') or {}).get('name', '[unknown]') for node in chain]
    else:
        ips = [param_dict['sample']['ip']]
        names = [param_dict.get('symbol') or '[unknown]']
    addrs[';'.join('0x%x' % a for a in reversed(ips))] += 1
    syms[';'.join(reversed(names))] += 1


def trace_end():
    out = sys.argv[1] if len(sys.argv) > 1 else 'folded'
    with open(out + '_addrs.txt', 'w') as f:
        for k in sorted(addrs):
            f.write('%s %d\n' % (k, addrs[k]))
    with open(out + '_sym.txt', 'w') as f:
        for k in sorted(syms):
            f.write('%s %d\n' % (k, syms[k]))
    sys.stderr.write('perf_fold: %d samples, events: %s\n' % (count, ', '.join(events)))
