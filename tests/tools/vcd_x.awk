# vcd_x.awk — the traced signals that ever show x (a value wider than the declared width).
#
# Usage: awk -f vcd_x.awk FILE.vcd
# Prints "x <full name> <width> <time>" for the first x of each signal, nothing when there is none.
/^\$scope/ { scope[++depth] = $3; next }
/^\$upscope/ { depth--; next }
/^\$var/ {
    name = ""
    for (i = 1; i <= depth; i++) name = name scope[i] "."
    names[$4] = (names[$4] == "" ? "" : names[$4] ",") name $5
    width[$4] = $3
    next
}
/^#/ { now = substr($1, 2); next }
/^b/ && $1 ~ /[xXzZ]/ { report($2); next }
/^[xXzZ]/ { report(substr($0, 2)); next }
function report(code) {
    if (code in done) return
    done[code] = 1
    print "x " names[code] " " width[code] " " now
}
