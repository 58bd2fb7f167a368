#!/bin/sh
# scripts/loops.awk, the loop finder of loop_counts.sh and loop_mca.sh, on a hand-cut objdump of
# the two shapes GCC gives regz's AVX2 loops: the row's partial vector stored lane by lane inline
# (a loop inside the main loop) and the whole vector's store out of line, coming back either by
# its own latch or by a jump into the loop; and a loop whose latch is a jump back, its exit test
# in the middle, which makes the loop around it an outer one; and the kernel's functions found by
# name (a clone of its row function read, another kernel's function not). Each main loop must be
# found, the lane loops left out of it and the out-of-line store counted. Needs only awk.
. tests/shlib.sh

cat >"$tmp/dump" <<'EOF'
0000000000001000 <k_t_run._omp_fn.0>:
    17a0:	lea    0x7(%rdx),%rdi
    17a4:	mov    $0xff,%eax
    17a9:	cmp    %r8,%rdi
    17ac:	jl     17e8 <k_t_run._omp_fn.0+0x7e8>
    17ae:	bzhi   %edi,%eax,%eax
    17e8:	vmovups 0x2940(%rsi,%rdx,4),%ymm3
    17f1:	vsubps (%rsi,%rdx,4),%ymm3,%ymm2
    1861:	cmp    $0xff,%eax
    1866:	je     18df <k_t_run._omp_fn.0+0x8df>
    1868:	vmovups %ymm2,0x70(%rsp)
    186e:	test   %eax,%eax
    1870:	je     18bb <k_t_run._omp_fn.0+0x8bb>
    1880:	tzcnt  %edi,%r14d
    1885:	blsr   %edi,%edi
    188a:	vmovss 0x70(%rsp,%r14,4),%xmm0
    1891:	vmovss %xmm0,0x0(%r13,%r14,4)
    1898:	jne    1880 <k_t_run._omp_fn.0+0x880>
    18bb:	add    $0x8,%rdx
    18c3:	cmp    %r8,%rdx
    18c6:	jl     17a0 <k_t_run._omp_fn.0+0x7a0>
    18cc:	jmp    156a <k_t_run._omp_fn.0+0x56a>
    18df:	add    $0x8,%rdx
    18e3:	vmovups %ymm2,0x0(%r13)
    18f6:	cmp    %r8,%rdx
    18f9:	jl     17a0 <k_t_run._omp_fn.0+0x7a0>
    18ff:	jmp    156a <k_t_run._omp_fn.0+0x56a>
    1a00:	vmovups (%rsi,%rdx,4),%ymm1
    1a05:	cmp    $0xff,%eax
    1a08:	je     1a80 <k_t_run._omp_fn.0+0xa80>
    1a0e:	vmovups %ymm1,0x70(%rsp)
    1a14:	tzcnt  %eax,%edi
    1a18:	blsr   %eax,%eax
    1a1c:	vmovss 0x70(%rsp,%rdi,4),%xmm0
    1a22:	vmovss %xmm0,(%r13,%rdi,4)
    1a28:	jne    1a14 <k_t_run._omp_fn.0+0xa14>
    1a2a:	add    $0x8,%rdx
    1a2e:	cmp    %r8,%rdx
    1a31:	jl     1a00 <k_t_run._omp_fn.0+0xa00>
    1a37:	ret
    1a80:	vmovups %ymm1,(%r13)
    1a84:	jmp    1a2a <k_t_run._omp_fn.0+0xa2a>
    1b00:	vmovups (%rsi,%rdx,4),%ymm1
    1b05:	add    $0x8,%rdx
    1b09:	cmp    %r8,%rdx
    1b0c:	je     1b20 <k_t_run._omp_fn.0+0xb20>
    1b0e:	vmovups %ymm1,(%r13,%rdx,4)
    1b14:	jmp    1b00 <k_t_run._omp_fn.0+0xb00>
    1b20:	ret
    1c00:	mov    %rsi,%rdx
    1c03:	vmovups (%rsi,%rdx,4),%ymm1
    1c08:	add    $0x8,%rdx
    1c0c:	cmp    %r8,%rdx
    1c0f:	je     1c20 <k_t_run._omp_fn.0+0xc20>
    1c11:	jmp    1c03 <k_t_run._omp_fn.0+0xc03>
    1c20:	add    $0x1,%rcx
    1c24:	cmp    %r9,%rcx
    1c27:	jl     1c00 <k_t_run._omp_fn.0+0xc00>
0000000000002000 <k_t_row.constprop.0>:
    2000:	vmovups (%rsi),%ymm0
    2004:	add    $0x20,%rsi
    2008:	cmp    %rdi,%rsi
    200b:	jne    2000 <k_t_row.constprop.0>
0000000000003000 <k_tx_run>:
    3000:	vmovups (%rsi),%ymm0
    3004:	cmp    %rdi,%rsi
    3008:	jne    3000 <k_tx_run>
EOF
# per loop of 32-byte vectors: its first address, instructions, vector stores not to the stack,
# vector loads
cat >"$tmp/show.awk" <<'EOF'
END {
    for (l = 1; l <= find_loops(); l++) {
        if (width[l] < 32) continue
        st = ld = 0
        for (h = 1; h <= nh[l]; h++) {
            x = ins[hot[l, h]]
            if (x ~ /mm[0-9]+,.*\)$/) { if (x !~ /rsp/) st++ } else if (x ~ /\(.*%[xy]mm/) ld++
        }
        printf "%x %d %d %d\n", at[hot[l, 1]], nh[l], st, ld
    }
}
EOF
out=$(awk -v name=k_t -f scripts/loops.awk -f "$tmp/show.awk" "$tmp/dump" 2>&1)
want="17a0 12 1 2
1a00 8 1 1
1b00 6 1 1
1c03 5 0 1
2000 4 0 1"
f=
[ "$out" = "$want" ] || f="found (first address, instructions, stores, loads):
$out
expected:
$want"
result loop_shapes "$f"
summary
