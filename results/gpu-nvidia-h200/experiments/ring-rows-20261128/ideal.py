cfg = [
(304,68,64,0,300),(304,68,64,4,300),(304,68,64,8,300),(304,68,64,12,300),(304,68,64,16,300),(304,68,64,24,300),
(304,64,64,0,300),(304,64,64,16,300),(304,72,64,0,300),(304,72,64,12,300),(304,132,128,0,300),(304,164,160,0,300),
(516,132,128,0,512),(520,132,128,0,512),(528,132,128,0,512),(544,132,128,0,512),(516,68,64,0,512),(528,68,64,0,512),
(528,64,64,16,512),(544,68,64,0,512)]
ny=nz=300
import re
meas={}
for l in open('results/gpu-nvidia-h200/experiments/ring-rows-20261128/ringbench.md'):
    m=re.match(r'\| cfg (\d+) .*?\| [\d.]+ \| ([\d.e+]+) \|',l)
    if m: meas[int(m.group(1))]=float(m.group(2))
for n,(pitch,cols,tilex,off,nx) in enumerate(cfg):
    tiles=(nx+tilex-1)//tilex
    total=0
    # per tile: copied floats
    spans=[]
    for t in range(tiles):
        i0=t*tilex+off
        np_=0
        for c in range(0,cols,4):
            if i0+c+4 > nx+8: break
            np_+=1
        spans.append((i0,np_*4))
    for k in range(nz):
        for j in range(ny):
            base=(k*pitch*ny+j*pitch)*4
            for i0,w in spans:
                if w==0: continue
                s=base+i0*4; e=s+w*4
                total+=(e-1)//32 - s//32 + 1
    print("cfg %d: ideal sectors %.3g, measured %.3g, ratio %.2f" % (n,total,meas[n],meas[n]/total))
