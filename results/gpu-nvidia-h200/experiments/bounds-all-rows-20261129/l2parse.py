"""Per kernel's last launch in ncu CSVs (run2.sh, run3.sh): time, DRAM %, the L2 partition fabric's busy %,
L2 bytes and SM-side L2 bytes per DRAM byte.   python3 l2parse.py l2-*.csv"""
import csv,glob,sys
sc={'byte':1,'Kbyte':1e3,'Mbyte':1e6,'Gbyte':1e9}
for f in sys.argv[1:]:
    text=open(f).read().splitlines()
    i=next(i for i,l in enumerate(text) if l.startswith('"ID"'))
    rows=list(csv.reader(text[i:]))
    head,units,runs=rows[0],rows[1],rows[2:]
    col={h:k for k,h in enumerate(head)}
    last={}
    for r in runs: last[r[col['Kernel Name']]]=r
    for k,r in last.items():
        v=lambda n: float(r[col[n]].replace(',','') or 'nan')
        d=v('dram__bytes_read.sum')*sc[units[col['dram__bytes_read.sum']]]+v('dram__bytes_write.sum')*sc[units[col['dram__bytes_write.sum']]]
        lt=v('lts__t_bytes.sum')*sc[units[col['lts__t_bytes.sum']]]
        rd=v('lts__t_sectors_srcunit_tex_op_read.sum')*32; wr=v('lts__t_sectors_srcunit_tex_op_write.sum')*32
        fab=v('lts__ltcfabric2ltc_cycles_active.max.pct_of_peak_sustained_elapsed') if 'lts__ltcfabric2ltc_cycles_active.max.pct_of_peak_sustained_elapsed' in col else float('nan')
        print('%s %-36s us %.1f dram%% %s fabric%% %.1f lts/dram %.2f tex/dram %.2f (rd %.2f wr %.2f) probe x DRAM / SM-side bytes %.0f%%' % (f, k[:36], v('gpu__time_duration.sum') * {'ns': 1e-3, 'nsecond': 1e-3, 'us': 1, 'usecond': 1, 'ms': 1e3, 'msecond': 1e3}[units[col['gpu__time_duration.sum']]], r[col['dram__throughput.avg.pct_of_peak_sustained_elapsed']], fab, lt/d, (rd+wr)/d, rd/d, wr/d, 100*d/(rd+wr)))
