# gpusc-plot: gnuplot hitrate-vs-warps.gp writes hitrate-vs-warps.png and hitrate-vs-warps.svg
set terminal pngcairo size 1000,560 noenhanced font ',11'
set output "hitrate-vs-warps.png"
set title "L1D hit rate against the warp limit (swl:N, tb-ccws, tiny)"
set xlabel "limit"
set ylabel "l1_hit_rate"
set grid
set key outside right top
plot "hitrate-vs-warps.dat" using 2:3 with linespoints lw 2 title columnheader(3), "hitrate-vs-warps.dat" using 2:4 with linespoints lw 2 title columnheader(4), "hitrate-vs-warps.dat" using 2:5 with linespoints lw 2 title columnheader(5), "hitrate-vs-warps.dat" using 2:6 with linespoints lw 2 title columnheader(6), "hitrate-vs-warps.dat" using 2:7 with linespoints lw 2 title columnheader(7), "hitrate-vs-warps.dat" using 2:8 with linespoints lw 2 title columnheader(8), "hitrate-vs-warps.dat" using 2:9 with linespoints lw 2 title columnheader(9), "hitrate-vs-warps.dat" using 2:10 with linespoints lw 2 title columnheader(10), "hitrate-vs-warps.dat" using 2:11 with linespoints lw 2 title columnheader(11), "hitrate-vs-warps.dat" using 2:12 with linespoints lw 2 title columnheader(12), "hitrate-vs-warps.dat" using 2:13 with linespoints lw 2 title columnheader(13), "hitrate-vs-warps.dat" using 2:14 with linespoints lw 2 title columnheader(14), "hitrate-vs-warps.dat" using 2:15 with linespoints lw 2 title columnheader(15), "hitrate-vs-warps.dat" using 2:16 with linespoints lw 2 title columnheader(16), "hitrate-vs-warps.dat" using 2:17 with linespoints lw 2 title columnheader(17), "hitrate-vs-warps.dat" using 2:18 with linespoints lw 2 title columnheader(18), "hitrate-vs-warps.dat" using 2:19 with linespoints lw 2 title columnheader(19)
set terminal svg size 1000,560 noenhanced font 'sans,11'
set output "hitrate-vs-warps.svg"
replot
unset output
