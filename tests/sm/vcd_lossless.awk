# vcd_lossless.awk — every instruction entering a traced stage leaves it, read back from a VCD.
#
# Usage: awk -f vcd_lossless.awk FILE.vcd
# A stage X is the pair of FIFOs <scope>.<W>_X (entering) and <scope>.X_<Y> (leaving) beside it,
# both traced with their put count and seq field: on an SM <sm>.issue_X and <sm>.X_release, on
# tb-pipeline tb.src_alu and tb.alu_sink. In a cycle whose put count is n, the items are
# <fifo>.seq and <fifo>.put1.seq .. <fifo>.put<n-1>.seq. Prints one line per stage:
#   stage <sm>.<X> entered N left M missing K [first missing seq]
# (a seq may leave twice: a release for its operand reads and one for its write-back), then
#   total entered N
# and exits 1 when a stage lost an instruction, no instruction entered any stage, or a put count
# or a seq is x.
BEGIN { depth = 0; nf = 0; bad = 0 }
/^\$scope/ { scope[++depth] = $3; next }
/^\$upscope/ { depth--; next }
/^\$var/ {
    name = ""
    for (i = 1; i <= depth; i++) name = name (i > 1 ? "." : "") scope[i]
    ref = $5
    # the FIFO is the scope; a putK slot's FIFO is the scope above it
    fifo = name; slot = 0
    if (scope[depth] ~ /^put[0-9]+$/) {
        slot = substr(scope[depth], 4) + 0
        fifo = ""
        for (i = 1; i < depth; i++) fifo = fifo (i > 1 ? "." : "") scope[i]
    }
    if (ref == "put" && slot == 0) { put_of[$4] = fifo; if (!(fifo in known)) { known[fifo] = 1; fifos[++nf] = fifo } }
    if (ref == "seq") { seq_code[fifo, slot] = $4; seq_of[$4] = seq_of[$4] SUBSEP fifo SUBSEP slot }
    next
}
/^\$enddefinitions/ { in_body = 1; next }
!in_body { next }
/^#/ { flush(); now = substr($1, 2); next }
/^\$/ { next }
{
    if ($0 ~ /^b/) { v = substr($1, 2); code = $2 } else { v = substr($0, 1, 1); code = substr($0, 2) }
    val[code] = v
    if (code in put_of) changed[code] = 1
}
END {
    flush()
    found = 0
    for (k = 1; k <= nf; k++) {
        f = fifos[k]
        if (!((f, 0) in seq_code)) continue
        n = split(f, part, ".")
        last = part[n]
        u = index(last, "_")
        if (!u) continue
        stage = substr(last, u + 1)
        sm = substr(f, 1, length(f) - length(last) - 1)
        # the FIFO out of the stage: <stage>_<next> beside it, carrying seq (<X>_release on an SM)
        out = ""
        for (j = 1; j <= nf; j++) {
            g = fifos[j]
            if (index(g, sm "." stage "_") == 1 && index(substr(g, length(sm) + 2), ".") == 0 && ((g, 0) in seq_code)) { out = g; break }
        }
        if (out == "") continue
        found++
        entered = 0; left = 0; missing = 0; first = ""
        for (key in seen) {
            split(key, kk, SUBSEP)
            if (kk[1] == f) {
                entered++
                if (!((out SUBSEP kk[2]) in seen)) { missing++; if (first == "") first = kk[2] }
            }
            if (kk[1] == out) left++
        }
        total += entered
        printf "stage %s.%s entered %d left %d missing %d%s\n", sm, stage, entered, left, missing,
            first == "" ? "" : " (seq " first ")"
        if (missing) bad = 1
    }
    printf "total entered %d\n", total
    if (!found || !total) { print "no stage found with instructions (W_X and X_Y FIFOs with put and seq)"; bad = 1 }
    exit bad
}
function bits(s,   x, i) {
    x = 0
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c != "0" && c != "1") return -1
        x = x * 2 + (c == "1")
    }
    return x
}
# The items put at the time just ended: the put count's first items, from their slots.
function flush(   code, n, f, s, q) {
    for (code in changed) {
        f = put_of[code]
        if (!((f, 0) in seq_code)) continue
        n = bits(val[code])
        if (n < 0) { print "put count of " f " is " val[code] " at " now; bad = 1; continue }
        for (s = 0; s < n; s++) {
            if (!((f, s) in seq_code)) { print f ": no seq traced for item " s " at " now; bad = 1; continue }
            q = bits(val[seq_code[f, s]])
            if (q < 0) { print f ": seq of item " s " is x at " now; bad = 1; continue }
            seen[f, q] = 1
        }
    }
    delete changed
}
