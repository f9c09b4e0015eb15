# perf script -s fold.py: perf's own resolved callchains, folded root first
# (one line per distinct stack: frames joined by ';', a space, the count).
import collections, os
stacks = collections.Counter()
ADDRS = os.environ.get('FOLD_ADDRS') == '1'
events = []
total = 0
def process_event(param_dict):
    global total
    total += 1
    ev = param_dict.get('ev_name')
    if ev not in events:
        events.append(ev)
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
    if os.environ.get('FOLD_LOG'):
        with open(os.environ['FOLD_LOG'], 'w') as f:
            f.write('perf_fold: %d samples, events: %s\n' % (total, ', '.join(events)))
    for k in sorted(stacks):
        print('%s %d' % (k, stacks[k]))
def trace_unhandled(event_name, context, event_fields_dict, perf_sample_dict):
    process_event(perf_sample_dict)
