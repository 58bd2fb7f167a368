/* SCRATCH: fused25d shared memory and blocks an SM for FV24's (and S{2,2}'s) source boxes at the launches the
 * two GPUs tuned, from gpu_rules.h (228 KB an SM, 1 KB reserved a block, 128 registers a thread).
 * gcc -std=c11 -Ikernels_gpu -Istencils -Icodegen -Iengine blocks_per_sm.c, in a tree. */
#include "gpu_rules.h"
#include <stdio.h>
int main(void){
  const int y0[3]={-1,-1,-1},y1[3]={2,1,2},z0[3]={-1,-1,-1},z1[3]={2,2,1};
  int launches[][4]={{32,4,2,1},{32,4,2,2},{32,4,2,3},{32,8,2,2},{64,4,2,2},{64,2,2,3}};
  for(int i=0;i<6;i++){ int *l=launches[i];
    for(int ix=1;ix<=2;ix++){ long v=fused25d_smem_values(l[0],l[1]*l[2],l[3],y0,y1,z0,z1,3,4,ix==2); long b=v*4;
      int threads=l[0]*l[1]; int byregs=65536/(threads*128); int bysmem=233472/(b+1024); int bythr=2048/threads; int blk=byregs<bysmem?byregs:bysmem; if(bythr<blk)blk=bythr; if (blk>32) blk=32;
      printf("%dx%d rows %d stages %d %s: %ld B, blocks/SM %d (smem %d, regs@128 %d) warps %d\n",l[0],l[1],l[2],l[3],ix==2?"indexed":"uniform",b,blk,bysmem,byregs,blk*threads/32);}}
}
