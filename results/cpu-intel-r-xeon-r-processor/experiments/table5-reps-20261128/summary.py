import csv, glob, statistics as st, sys
for r in ('r25', 'r5'):
    files = sorted(glob.glob('%s/bench-*.csv' % r))
    data = {}
    for f in files:
        for x in csv.DictReader(open(f)):
            if x['table'] != 'table5-allthreads': continue
            data.setdefault((x['scheme'], x['variant']), []).append(float(x['pct_bw']))
    print(r, len(files), 'runs')
    for k in sorted(data):
        v = data[k]
        print('  %-7s %-6s median %6.1f range %5.1f  %s' % (k[0], k[1], st.median(v), max(v) - min(v), ' '.join('%.0f' % y for y in v)))
