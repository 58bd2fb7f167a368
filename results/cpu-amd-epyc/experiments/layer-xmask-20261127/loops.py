# Innermost loops of an objdump -d listing: size, zmm instructions, stack references, broadcasts.
#   python3 loops.py FILE.asm [N]
import sys,re
lines=[l for l in open(sys.argv[1]) if re.match(r'^\s+[0-9a-f]+:\t',l)]
ins=[]
for l in lines:
    a,rest=l.split(':',1); a=int(a,16); t=rest.strip()
    ins.append((a,t))
idx={a:i for i,(a,t) in enumerate(ins)}
loops=[]
for i,(a,t) in enumerate(ins):
    m=re.match(r'j\w+\s+([0-9a-f]+)',t)
    if m:
        tgt=int(m.group(1),16)
        if tgt<a and tgt in idx: loops.append((idx[tgt],i))
# innermost: no other loop strictly inside
inner=[l for l in loops if not any(o!=l and o[0]>=l[0] and o[1]<=l[1] for o in loops)]
for s,e in sorted(inner,key=lambda x:-(x[1]-x[0]))[:int(sys.argv[2]) if len(sys.argv)>2 else 4]:
    body=[t for a,t in ins[s:e+1]]
    n=len(body); zmm=sum('zmm' in t for t in body); stk=sum('(%rsp)' in t for t in body); bc=sum('1to' in t or 'broadcast' in t for t in body)
    print(f"loop {ins[s][0]:x}-{ins[e][0]:x}: {n} insns, {zmm} zmm, {stk} stack refs, {bc} broadcasts")
