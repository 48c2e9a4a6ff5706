# experiments/spu/common.sh — what the SPU experiment scripts share; sourced (`. "$here/common.sh"`)
# after `here` is set to the scripts' directory.
#   spu_init BUILD_DIR OUT_DIR CSV HEADER  sets build (default build), out (created; default
#                                   results), tb (tb-spu of that build) and csv ($out/CSV, holding the
#                                   line HEADER)
#   spu_parse LOG                   sets cyc, res, off: the run's cycles, PASS/FAIL and off-chip
#                                   element accesses (empty when the log has none)
#   spu_plot WIDTH [SETTINGS...]    runs gnuplot (when installed) on the shared histogram settings,
#                                   then each SETTINGS line, then the plot commands read from stdin
spu_init() {
    build=$(cd "${1:-$here/../../build}" && pwd)
    out=${2:-$here/results}
    mkdir -p "$out"
    tb="$build/testbench/tb-spu"
    csv="$out/$3"
    echo "$4" >"$csv"
}

spu_parse() {
    cyc=$(sed -n 's/^tb-spu: .*cycles \([0-9]*\) .*/\1/p' "$1")
    res=$(sed -n 's/^tb-spu: .*: \(PASS\|FAIL\)$/\1/p' "$1")
    off=$(sed -n 's/^offchip_accesses \([0-9]*\) .*/\1/p' "$1")
}

spu_plot() {
    if ! command -v gnuplot >/dev/null 2>&1; then
        cat >/dev/null
        return 0
    fi
    width=$1
    shift
    {
        printf '%s\n' "set datafile separator ','" "set terminal pngcairo size $width,500" \
            "set style data histograms" "set style histogram clustered gap 1" \
            "set style fill solid 0.8 border -1" "set key top left" "set grid ytics"
        for s in "$@"; do printf '%s\n' "$s"; done
        cat
    } | gnuplot
}
