# perf script -s fold_event.py: perf's own resolved callchains of the samples of
# one event (FOLD_EVENT), folded root first: frames joined by ';', a space, the
# number of samples; FOLD_ADDRS=1 prints addresses instead of names.
import collections, os
stacks = collections.Counter()
ADDRS = os.environ.get('FOLD_ADDRS') == '1'
EVENT = os.environ.get('FOLD_EVENT')
def process_event(param_dict):
    if param_dict.get('ev_name') != EVENT:
        return
    names = []
    for node in param_dict.get('callchain', []):
        if ADDRS:
            names.append('0x%x' % node['ip'])
            continue
        sym = node.get('sym')
        names.append(sym['name'] if sym and sym.get('name') else '[unknown]')
    if not names:
        sym = param_dict.get('symbol')
        names = ['0x%x' % param_dict['sample']['ip']] if ADDRS else [sym if sym else '[unknown]']
    stacks[';'.join(reversed(names))] += 1
def trace_end():
    for k in sorted(stacks):
        print('%s %d' % (k, stacks[k]))
