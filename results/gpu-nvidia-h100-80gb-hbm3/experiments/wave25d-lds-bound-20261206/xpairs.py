#!/usr/bin/env python3
# Shared loads of wave25d a node-step, from the generated level bodies (codegen, no GPU): per thread
# of R adjacent rows, one node along x (today) against X = 2 or 4 nodes along x read by aligned
# LDS.64 / LDS.128, and the values alone. Run from the repo root after make:
#   python3 results/gpu-nvidia-h100-80gb-hbm3/experiments/wave25d-lds-bound-20261206/xpairs.py stencils/*.stencil
import re,subprocess,sys
def body_points(scheme):
    out=subprocess.run(['build/gen/generate','one','kernels_gpu/wave25d.cu.step',scheme,'hx','f32','uniform']+sys.argv[1:],capture_output=True,text=True).stdout
    # split the H and E bodies at the 'else {' between them
    i=out.find('if constexpr (S % 2)'); j=out.find('} else {',i); k=out.find('#pragma unroll',j)
    H=out[i:j]; E=out[j:k]
    pat=re.compile(r"LD\((S[012]),\s*OFF\((-?\d+),\s*(-?\d+),\s*(-?\d+)\)\)")
    return [set((m,int(a),int(b),int(c)) for m,a,b,c in pat.findall(x)) for x in (H,E)]
for s in ['yee','fv24','fv24wb','s22']:
    res=[]
    for R in (1,2,4):
        tot1=tot2=byt2=0
        for P in body_points(s):
            U=set((m,di,dj+r,dk) for (m,di,dj,dk) in P for r in range(R))
            tot1+=len(U)/R
            rows={}
            for (m,di,dj,dk) in U: rows.setdefault((m,dj,dk),[]).append(di)
            c=0
            for D in rows.values():
                a=min(D); b=max(D)+1
                c+= b//2 - a//2 + 1
            tot2+=c/(2*R)
        res.append('R%d: LDS/node-step %.1f -> pairs %.1f LDS.64 (%.0f%% of the bytes)'%(R,tot1,tot2,100*tot2*2/tot1))
    print(s,' | '.join(res))
print('X=4, LDS.128 aligned quads, and X=2/4 from registers by shuffles (exact values):')
for s in ['fv24','fv24wb','s22']:
    res=[]
    for R in (2,4):
        t1=q=ex2=ex4=0
        for P in body_points(s):
            U=set((m,di,dj+r,dk) for (m,di,dj,dk) in P for r in range(R))
            t1+=len(U)/R
            rows={}
            for (m,di,dj,dk) in U: rows.setdefault((m,dj,dk),[]).append(di)
            for D in rows.values():
                a=min(D); b=max(D)+3
                q+=(b//4-a//4+1)/(4*R)
                ex2+=len(set(d+x for d in D for x in range(2)))/(2*R)
                ex4+=len(set(d+x for d in D for x in range(4)))/(4*R)
        res.append('R%d: %.0f values -> quads %.1f LDS.128 (%.0f%% bytes); exact X=2 %.0f%%, X=4 %.0f%%'%(R,t1,q,100*q*4/t1,100*ex2/t1,100*ex4/t1))
    print(s,' | '.join(res))
