#!/usr/bin/env python3
"""gen-iu-ptx.py — writes kernels/spu/spu_iu.ptx, the SPU's interface-unit code (docs/spu.md,
"Interface units running code").

An interface unit (IU) is a truncated SM: it fetches and executes instructions of a restricted subset
(integer arithmetic, branches, loads and stores to global memory and to its CB, bar.blocksync, the
SPU registers). Its code is part of the SPU kernel; the source does not list it, so it is written
here to the stencil's data-movement rules: a north or west IU loads the input faces of its SM's
tiles into its CB, a south or east IU stores the output faces from its CB.

One entry per sync mode and side (the CB access and the blocksync direction are part of the
instruction): spu_iu_<global|local>_<n|w|s|e>(X, Y, N, K, b, p). X and Y are the face arrays
(the testbench's: face ft, element (k, t) at 4 * ((ft * K + k) * N + t)); the west and east IUs use
X, the north and south ones Y. The IU reads its position along the border of the CTA grid from
%regiuid and the pass it serves from %regcpassx and %regcpassy (the runtime sets them per pass), so
a loader of pass (px, py) reads face px p (west) or py p (north), a storer writes face (px + 1) p or
(py + 1) p, or G at the grid's edge when the pass is partial (it spans fewer than p CTAs: the SMs next
to its edge run this code as its east and south units). One warp of 32 threads; a b x b face is moved in chunks of 8 x 32 elements: eight loads,
then eight stores, so that eight loads are in flight at once.

The runtime's inserted VIU code (multipass, the units at a pass border): spu_viu_<global|local>_<side>
(X, Y, N, K, b, p, guard), the same movement to and from the spill region (the face array at the
pass border) as a spilling (south, east) or restoring (north, west) VIU, with the spill -> restore
ordering guard in code: a spilling VIU writes the count of tiles it has spilled to its border's
counter word `guard` after each tile (st.volatile), a restoring VIU reads it (ld.volatile) until it
exceeds the tile it restores next. The counter words are synchronisation, not element accesses.

Usage: python3 kernels/spu/gen-iu-ptx.py > kernels/spu/spu_iu.ptx
"""

UNROLL = 8
SIDES = {  # side: (store, face param, CB access, blocksync direction toward its SM)
    "n": (False, "y", "st.cb.south", "south"),
    "w": (False, "x", "st.cb.east", "east"),
    "s": (True, "y", "ld.cb.north", "north"),
    "e": (True, "x", "ld.cb.west", "west"),
}


def transfer(out, side, name):
    """The face of tile %r12 (kt) between global memory and the CB."""
    store, _, cb, _ = SIDES[side]
    # base = face + 4 * ((ft * K + kt * b) * N + id * b), ft (%r18) the face at the unit's border
    out += [
        "\tmul.lo.u32 \t%r13, %r18, %r2;",
        "\tmad.lo.u32 \t%r13, %r12, %r3, %r13;",
        "\tmul.lo.u32 \t%r14, %r5, %r3;",
        "\tmad.lo.u32 \t%r13, %r13, %r1, %r14;",
        "\tmul.wide.u32 \t%rd2, %r13, 4;",
        "\tadd.s64 \t%rd2, %rd1, %rd2;",
        "\tmov.u32 \t%r15, 0;",
        f"$C_{name}:",
    ]
    for u in range(UNROLL):
        out += [
            f"\tadd.s32 \t%e{u}, %r15, {u * 32};",
            f"\tadd.s32 \t%e{u}, %e{u}, %r6;",
            f"\tsetp.lt.u32 \t%q{u}, %e{u}, %r9;",
            f"\tdiv.u32 \t%t{u}, %e{u}, %r3;",
            f"\trem.u32 \t%c{u}, %e{u}, %r3;",
            f"\tmad.lo.u32 \t%t{u}, %t{u}, %r1, %c{u};",
            f"\tmul.wide.u32 \t%rd{8 + u}, %t{u}, 4;",
            f"\tadd.s64 \t%a{u}, %rd2, %rd{8 + u};",
            f"\tshl.b32 \t%c{u}, %e{u}, 2;",
        ]
        if not store:
            out.append(f"\t@%q{u} ld.global.b32 \t%v{u}, [%a{u}];")
        else:
            out.append(f"\t@%q{u} {cb}.b32 \t%v{u}, [%c{u}];")
    for u in range(UNROLL):
        if not store:
            out.append(f"\t@%q{u} {cb}.b32 \t[%c{u}], %v{u};")
        else:
            out.append(f"\t@%q{u} st.global.b32 \t[%a{u}], %v{u};")
    out += [
        f"\tadd.s32 \t%r15, %r15, {UNROLL * 32};",
        "\tsetp.lt.u32 \t%p1, %r15, %r9;",
        f"\t@%p1 bra \t$C_{name};",
    ]


def guard(out, side, name):
    """VIU: after a spill, the tiles spilled so far to the counter; before a restore, wait for it."""
    store = SIDES[side][0]
    if store:
        out += ["\tadd.s32 \t%r19, %r12, 1;", "\tst.volatile.global.u32 \t[%rd3], %r19;"]
    else:
        out += [
            f"$G_{name}:",
            "\tld.volatile.global.u32 \t%r19, [%rd3];",
            "\tsetp.le.u32 \t%p2, %r19, %r12;",
            f"\t@%p2 bra \t$G_{name};",
        ]


def move(out, side, name, viu):
    """The tile's transfer; a VIU's with its guard (a restore waits before, a spill counts after)."""
    store = SIDES[side][0]
    if viu and not store:
        guard(out, side, name)
    transfer(out, side, name)
    if viu and store:
        guard(out, side, name)


def entry(mode, side, viu=False):
    store, face, _, sdir = SIDES[side]
    name = f"spu_{'viu' if viu else 'iu'}_{mode}_{side}"
    params = [f"\t.param .u64 {name}_guard"] if viu else []
    out = [
        f".visible .entry {name}(",
        f"\t.param .u64 {name}_x,",
        f"\t.param .u64 {name}_y,",
        f"\t.param .u32 {name}_n,",
        f"\t.param .u32 {name}_k,",
        f"\t.param .u32 {name}_b,",
        f"\t.param .u32 {name}_p" + ("," if viu else ""),
        *params,
        ")",
        "{",
        "\t.reg .pred \t%p<4>;",
        f"\t.reg .pred \t%q<{UNROLL}>;",
        "\t.reg .b32 \t%r<20>;",
        f"\t.reg .b32 \t%e<{UNROLL}>;",
        f"\t.reg .b32 \t%t<{UNROLL}>;",
        f"\t.reg .b32 \t%c<{UNROLL}>;",
        f"\t.reg .b32 \t%v<{UNROLL}>;",
        f"\t.reg .b64 \t%rd<{8 + UNROLL}>;",
        f"\t.reg .b64 \t%a<{UNROLL}>;",
        "",
        f"\tld.param.u64 \t%rd1, [{name}_{face}];",
        f"\tld.param.u32 \t%r1, [{name}_n];",
        f"\tld.param.u32 \t%r2, [{name}_k];",
        f"\tld.param.u32 \t%r3, [{name}_b];",
        f"\tld.param.u32 \t%r4, [{name}_p];",
        "\tmov.u32 \t%r5, %regiuid;",
        "\tmov.u32 \t%r6, %tid.x;",
        "\tdiv.u32 \t%r7, %r1, %r3;",  # G
        "\tdiv.u32 \t%r8, %r2, %r3;",  # K / b
        "\tmul.lo.u32 \t%r9, %r3, %r3;",  # b * b
        f"\tmov.u32 \t%r17, %regcpass{'y' if face == 'y' else 'x'};",  # the pass across the border
        "\tmul.lo.u32 \t%r18, %r17, %r4;",  # its first CTA: a loader's face
    ]
    if store:  # a storer's: the next pass's first, G after a partial pass
        out += ["\tadd.s32 \t%r18, %r18, %r4;", "\tmin.u32 \t%r18, %r18, %r7;"]
    if viu:
        out.append(f"\tld.param.u64 \t%rd3, [{name}_guard];")
    if mode == "global":
        # Algorithm 1's IU: 1 + 2(G - 1) + K/b barriers; before barrier t a loader moves tile
        # t - id, a storer (after barrier t, so before barrier t + 1) tile t - (id + s - 1) - 2, s the
        # pass's span across the border (p, or fewer in a partial pass)
        out += [
            "\tadd.s32 \t%r10, %r7, %r7;",
            "\tadd.s32 \t%r10, %r10, %r8;",
            "\tsub.s32 \t%r10, %r10, 1;",  # B
        ]
        # the lag: id + (the pass across) p for a loader; a storer's id + its face + 1 (its face is
        # the first CTA after the pass: (the pass across) p + s)
        if store:
            out += ["\tadd.s32 \t%r11, %r18, %r5;", "\tadd.s32 \t%r11, %r11, 1;"]
        else:
            out += ["\tmul.lo.u32 \t%r11, %r17, %r4;", "\tadd.s32 \t%r11, %r11, %r5;"]
        out += [
            "\tmov.u32 \t%r16, 0;",  # t
            f"$T_{name}:",
            "\tsub.s32 \t%r12, %r16, %r11;",
            "\tsetp.lt.s32 \t%p1, %r12, 0;",
            f"\t@%p1 bra \t$S_{name};",
            "\tsetp.ge.s32 \t%p1, %r12, %r8;",
            f"\t@%p1 bra \t$S_{name};",
        ]
        move(out, side, name, viu)
        out += [
            f"$S_{name}:",
            "\tsetp.eq.s32 \t%p1, %r16, %r10;",
            f"\t@%p1 bra \t$D_{name};",
            "\tbar.blocksync;",
            "\tadd.s32 \t%r16, %r16, 1;",
            f"\tbra.uni \t$T_{name};",
        ]
    else:
        # Algorithm 3's IU: per tile a loader moves the face then syncs with its SM, a storer syncs
        # then moves it
        out += ["\tmov.u32 \t%r12, 0;", f"$T_{name}:"]
        if store:
            out.append(f"\tbar.blocksync.{sdir};")
        move(out, side, name, viu)
        if not store:
            out.append(f"\tbar.blocksync.{sdir};")
        out += [
            "\tadd.s32 \t%r12, %r12, 1;",
            "\tsetp.lt.u32 \t%p1, %r12, %r8;",
            f"\t@%p1 bra \t$T_{name};",
        ]
    out += [f"$D_{name}:", "\texit;", "}", ""]
    return out


def main():
    out = [
        "// spu_iu.ptx — the SPU interface units' code (docs/spu.md). Generated by",
        "// kernels/spu/gen-iu-ptx.py; edit that script, not this file.",
        "",
        ".version 7.0",
        ".target sm_75",
        ".address_size 64",
        "",
    ]
    for viu in (False, True):
        for mode in ("global", "local"):
            for side in "nwse":
                out += entry(mode, side, viu)
    print("\n".join(out))


if __name__ == "__main__":
    main()
