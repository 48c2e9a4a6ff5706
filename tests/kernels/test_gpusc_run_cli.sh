#!/bin/sh
# gpusc-run --ptx: in:/out:/inout:/bytes: arguments and scalar conversion, checked byte for byte
# against what python3 computes; and the error cases with their messages and exit codes (TAP).
run="${top_builddir:-.}/kernels/tools/gpusc-run"
src="${top_srcdir:-.}"
ptx="$src/tests/kernels/ptx"
if [ ! -x "$run" ] || ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP needs $run and python3"
    exit 0
fi
run="$(cd "$(dirname "$run")" && pwd)/gpusc-run" # absolute: one test runs from another directory
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "1..38"
i=0
fail=0
ok() { i=$((i + 1)); echo "ok $i - $1"; }
nok() { i=$((i + 1)); fail=1; echo "not ok $i - $1"; [ -f "$tmp/err" ] && sed 's/^/# /' "$tmp/err" | head -10; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }

# Inputs: x = i * 0.25, y = 100 - i (float32, little-endian), n = 1000.
python3 - "$tmp" <<'PY'
import struct, sys
d = sys.argv[1]
n = 1000
open(d + "/x.bin", "wb").write(struct.pack("<%df" % n, *[i * 0.25 for i in range(n)]))
open(d + "/y.bin", "wb").write(struct.pack("<%df" % n, *[100.0 - i for i in range(n)]))
a = struct.unpack("<f", struct.pack("<f", 1.75))[0]
def f32(v): return struct.unpack("<f", struct.pack("<f", v))[0]
# y = a*x + y + k over the first 900 elements (n = 900), k = -3; fma rounds once.
ys = [f32(f32(a * (i * 0.25) + (100.0 - i)) + -3.0) if i < 900 else 100.0 - i for i in range(n)]
open(d + "/want_y.bin", "wb").write(struct.pack("<%df" % n, *ys))
# vecadd: c = a + b on float32 for n = 1000
open(d + "/want_c.bin", "wb").write(struct.pack("<%df" % n, *[f32(i * 0.25 + 100.0 - i) for i in range(n)]))
PY

# 1-2: vecadd from the workloads' PTX, in: and out:
"$run" --functional --ptx "$src/kernels/ptx/vecadd.ptx" --entry vecadd --grid 4,1,1 --block 256,1,1 \
    --arg "in:$tmp/x.bin" --arg "in:$tmp/y.bin" --arg "out:$tmp/c.bin:4000" --arg 1000 >"$tmp/out" 2>"$tmp/err"
check "vecadd in:/out: runs" "[ $? -eq 0 ]"
check "vecadd output bytes" "cmp -s '$tmp/c.bin' '$tmp/want_c.bin'"

# 3-4: inout: with an f32 and a negative s32 scalar; relative paths from the working directory
cp "$tmp/y.bin" "$tmp/y_in.bin"
(cd "$tmp" && "$run" --functional --ptx "$ptx/cli.ptx" --entry axpy --grid 2 --block 512 \
    --arg in:x.bin --arg inout:y_in.bin:y_out.bin --arg 900 --arg 1.75 --arg -3 >"$tmp/out" 2>"$tmp/err")
check "axpy inout: with relative paths runs" "[ $? -eq 0 ]"
check "axpy inout: output bytes" "cmp -s '$tmp/y_out.bin' '$tmp/want_y.bin'"

# 5-6: bytes: for a by-value struct, hex scalars; the kernel copies them out
"$run" --functional --ptx "$ptx/memory.ptx" --entry byval --grid 1,1,1 --block 1,1,1 --arg "out:$tmp/s.bin:24" \
    --arg bytes:44332211887766550123456789abcdef --arg 0x4d --arg 2.5 >"$tmp/out" 2>"$tmp/err"
check "byval bytes: runs" "[ $? -eq 0 ]"
check "byval output bytes" "[ \"\$(od -An -tx1 -v '$tmp/s.bin' | tr -d ' \n')\" = 44332211887766550123456789abcdef4d00000000002040 ]"

# 7: --stats
"$run" --functional --stats --ptx "$src/kernels/ptx/vecadd.ptx" --entry vecadd --grid 4 --block 256 \
    --arg "in:$tmp/x.bin" --arg "in:$tmp/y.bin" --arg "out:$tmp/c.bin:4000" --arg 1000 >"$tmp/out" 2>"$tmp/err"
check "--stats prints counts" "grep -q '^thread instructions: ' '$tmp/out' && grep -q '^ctas: 4$' '$tmp/out' && grep -q '^thread instructions/s: ' '$tmp/out'"

# Errors: exit status and message.
expect() { # name, status, message fragment, command...
    name=$1 st=$2 msg=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq "$st" ] && grep -qF -- "$msg" "$tmp/err"; then ok "$name"; else echo "# exit $rc" >>"$tmp/err"; nok "$name"; fi
}
V="$src/kernels/ptx/vecadd.ptx"
expect "non-integer for .u32" 2 "gpusc: --arg 4: parameter vecadd_param_3 is .u32 but '1.5' is not an integer" \
    "$run" --functional --ptx "$V" --entry vecadd --grid 1 --block 32 --arg "in:$tmp/x.bin" --arg "in:$tmp/y.bin" --arg "out:$tmp/c.bin:4000" --arg 1.5
expect "missing input file" 2 "$tmp/nosuch.bin" \
    "$run" --functional --ptx "$V" --entry vecadd --grid 1 --block 32 --arg "in:$tmp/nosuch.bin" --arg "in:$tmp/y.bin" --arg "out:$tmp/c.bin:4000" --arg 10
expect "wrong argument count" 2 "kernel vecadd takes 4 parameters but 3 --arg were given" \
    "$run" --functional --ptx "$V" --entry vecadd --grid 1 --block 32 --arg "in:$tmp/x.bin" --arg "in:$tmp/y.bin" --arg 10
expect "unknown entry" 2 "no kernel (.entry) named 'nosuch'" \
    "$run" --functional --ptx "$V" --entry nosuch --grid 1 --block 32
printf '.version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n\tfrobnicate.u32 %%r1;\n}\n' >"$tmp/bad.ptx"
expect "PTX parse error names file and line" 2 "bad.ptx:6:" \
    "$run" --functional --ptx "$tmp/bad.ptx" --entry k --grid 1 --block 1
expect "pointer to a 32-bit parameter" 2 "--arg 4: parameter vecadd_param_3 is .u32 but a buffer" \
    "$run" --functional --ptx "$V" --entry vecadd --grid 1 --block 32 --arg "in:$tmp/x.bin" --arg "in:$tmp/y.bin" --arg "out:$tmp/c.bin:4000" --arg "in:$tmp/x.bin"
expect "value out of range" 2 "--arg 3: parameter k is .u32 but '0x100000000' does not fit" \
    "$run" --functional --ptx "$ptx/memory.ptx" --entry byval --grid 1 --block 1 --arg "out:$tmp/s.bin:24" --arg bytes:00000000000000000000000000000000 --arg 0x100000000 --arg 1
expect "bytes: of the wrong size" 2 "parameter s is .b8[16] but 2 bytes were given" \
    "$run" --functional --ptx "$ptx/memory.ptx" --entry byval --grid 1 --block 1 --arg "out:$tmp/s.bin:24" --arg bytes:0102 --arg 1 --arg 1
expect "bytes: with an odd number of hex digits" 2 "parameter s is .b8[16] but '123' is not bytes in hex" \
    "$run" --functional --ptx "$ptx/memory.ptx" --entry byval --grid 1 --block 1 --arg "out:$tmp/s.bin:24" --arg bytes:123 --arg 1 --arg 1
expect "not a number for .f32" 2 "--arg 4: parameter f is .f32 but 'abc' is not a number" \
    "$run" --functional --ptx "$ptx/memory.ptx" --entry byval --grid 1 --block 1 --arg "out:$tmp/s.bin:24" --arg bytes:00000000000000000000000000000000 --arg 1 --arg abc
expect ".f32 literal out of range" 2 "--arg 4: parameter f is .f32 but '1e39' does not fit" \
    "$run" --functional --ptx "$ptx/memory.ptx" --entry byval --grid 1 --block 1 --arg "out:$tmp/s.bin:24" --arg bytes:00000000000000000000000000000000 --arg 1 --arg 1e39
expect "--functional is required" 2 "--functional is required" \
    "$run" --ptx "$V" --entry vecadd --grid 1 --block 32
expect "malformed --grid" 2 "--grid X,Y,Z is missing or malformed" \
    "$run" --functional --ptx "$V" --entry vecadd --grid 1,x --block 32
expect "out-of-bounds access is a runtime error naming the PC" 1 "kernel vecadd: pc " \
    "$run" --functional --ptx "$V" --entry vecadd --grid 4 --block 256 --arg "in:$tmp/x.bin" --arg "in:$tmp/y.bin" --arg "out:$tmp/c.bin:4000" --arg 1024
# Launch resources are checked before anything is allocated: a clear error naming the file, the
# kernel and the sizes, exit 1 (no allocation failure, no crash).
kptx() { # file, parameter list, body line: a kernel k
    printf '.version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(%s)\n{\n\t%s\n\tret;\n}\n' "$2" "$3" \
        >"$tmp/$1"
}
kptx big_shared.ptx '' '.shared .align 4 .b8 s[99999999999];'
kptx big_local.ptx '' '.local .align 4 .b8 l[999999999];'
kptx s50k.ptx '' '.shared .align 4 .b8 s[50000];'
expect "huge static .shared" 1 "big_shared.ptx: kernel k: a CTA needs 99999999999 bytes of shared memory (99999999999 static + 0 dynamic)" \
    "$run" --functional --ptx "$tmp/big_shared.ptx" --entry k --grid 1 --block 32
expect "huge .local per thread" 1 "big_local.ptx: kernel k: 1000000000 bytes of local memory per thread" \
    "$run" --functional --ptx "$tmp/big_local.ptx" --entry k --grid 1 --block 1024
expect "static .shared over the runner's 48 KiB" 1 "s50k.ptx: kernel k: a CTA needs 50000 bytes of shared memory (50000 static + 0 dynamic) but the functional runner allows 49152 per CTA" \
    "$run" --functional --ptx "$tmp/s50k.ptx" --entry k --grid 1 --block 32
"$run" --functional --max-shared 50000 --ptx "$tmp/s50k.ptx" --entry k --grid 1 --block 32 >"$tmp/out" 2>"$tmp/err"
check "--max-shared raises the limit" "[ $? -eq 0 ]"
expect "--shared over the runner's limit" 1 "kernel vecadd: a CTA needs 60000 bytes of shared memory (0 static + 60000 dynamic)" \
    "$run" --functional --ptx "$V" --entry vecadd --grid 1 --block 32 --shared 60000 --arg "in:$tmp/x.bin" --arg "in:$tmp/y.bin" --arg "out:$tmp/c.bin:4000" --arg 10
expect "--max-shared out of range" 2 "--max-shared -1 is out of range" \
    "$run" --functional --max-shared -1 --ptx "$V" --entry vecadd --grid 1 --block 32

# --shared: dynamic shared memory (.extern .shared dsm[]): out[t] = dsm[n-1-t] + 1000 * %dynamic_smem_size
"$run" --functional --ptx "$ptx/memory.ptx" --entry dynshared --grid 1 --block 96 --shared 384 \
    --arg "out:$tmp/d.bin:384" >"$tmp/out" 2>"$tmp/err"
check "--shared gives the dynamic shared array its bytes" "[ $? -eq 0 ]"
python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<96I', *[384000 + 95 - t for t in range(96)]))" >"$tmp/want_d.bin"
check "--shared output bytes" "cmp -s '$tmp/d.bin' '$tmp/want_d.bin'"
expect "without --shared the dynamic array has no room" 1 "outside the CTA's 0 bytes of shared memory" \
    "$run" --functional --ptx "$ptx/memory.ptx" --entry dynshared --grid 1 --block 96 --arg "out:$tmp/d.bin:384"

# %nwarpid is the SM's number of warp ids (default 48, --nwarpid), not the CTA's warps; %warpid is
# below it. Two warps of 64 threads: out[0] = %nwarpid, out[1] = %warpid of thread 63.
kptx nwarpid.ptx '.param .u64 out' '.reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<2>; ld.param.u64 %rd1, [out];
    mov.u32 %r1, %nwarpid; mov.u32 %r2, %warpid; mov.u32 %r3, %tid.x; st.global.u32 [%rd1], %r1;
    setp.eq.u32 %p1, %r3, 63; @%p1 st.global.u32 [%rd1+4], %r2;'
"$run" --functional --ptx "$tmp/nwarpid.ptx" --entry k --grid 1 --block 64 --arg "out:$tmp/nw.bin:8" >"$tmp/out" 2>"$tmp/err"
check "%nwarpid reads 48 by default, %warpid the warp in the CTA" "[ \"\$(od -An -tu4 '$tmp/nw.bin' | tr -s ' ')\" = ' 48 1' ]"
"$run" --functional --nwarpid 64 --ptx "$tmp/nwarpid.ptx" --entry k --grid 1 --block 64 --arg "out:$tmp/nw.bin:8" >"$tmp/out" 2>"$tmp/err"
check "--nwarpid 64" "[ \"\$(od -An -tu4 '$tmp/nw.bin' | tr -s ' ')\" = ' 64 1' ]"
expect "--nwarpid out of range" 2 "--nwarpid 16 is out of range (32 to 1024)" \
    "$run" --functional --nwarpid 16 --ptx "$tmp/nwarpid.ptx" --entry k --grid 1 --block 64 --arg "out:$tmp/nw.bin:8"

expect "unknown workload" 2 "unknown workload 'nosuch'" "$run" --functional --workload nosuch
expect "unknown size" 2 "unknown size 'huge'" "$run" --functional --workload vecadd --size huge

# --rewritten runs the code register allocation rewrote (rematerialization re-reads %tid in every
# block of reduction's shared tree: more instructions); --stats says which code ran.
"$run" --functional --stats --workload reduction --size tiny >"$tmp/orig" 2>"$tmp/err" &&
    "$run" --functional --stats --rewritten --workload reduction --size tiny >"$tmp/rew" 2>>"$tmp/err"
check "--rewritten runs the rewritten code and --stats says which code ran" \
    "grep -q '^code: original' '$tmp/orig' && grep -q '^code: rewritten' '$tmp/rew' && grep -q '^reduction (tiny): ok' '$tmp/rew' && [ \"\$(sed -n 's/^warp instructions: //p' '$tmp/orig')\" -lt \"\$(sed -n 's/^warp instructions: //p' '$tmp/rew')\" ]"

# A wrong kernel (add turned into sub) is a mismatch: exit 1 and the first differing elements.
mkdir "$tmp/bad"
sed 's/add\.f32/sub.f32/' "$src/kernels/ptx/vecadd.ptx" >"$tmp/bad/vecadd.ptx"
expect "workload mismatch lists the first differing elements" 1 "c[0]: expected" \
    "$run" --functional --ptx-dir "$tmp/bad" --workload vecadd --size tiny

# --trace: one line per warp instruction; the divergent branch shows the split masks.
"$run" --functional --ptx "$ptx/diverge.ptx" --entry ifelse --grid 1 --block 40 --arg "out:$tmp/o.bin:160" \
    --arg "out:$tmp/m.bin:160" --trace "$tmp/trace.txt" --stats >"$tmp/out" 2>"$tmp/err"
check "--trace writes one line per warp instruction" \
    "[ \"\$(wc -l <'$tmp/trace.txt')\" -eq \"\$(sed -n 's/^warp instructions: //p' '$tmp/out')\" ] && grep -q 'warp 1 ifelse pc 5 mask 000000ff active 00000055  @%p1 bra' '$tmp/trace.txt'"
exit $fail
