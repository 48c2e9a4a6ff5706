# gpusc-plot: gnuplot daws.gp writes daws.png and daws.svg
set terminal pngcairo size 1000,560 noenhanced font ',11'
set output "daws.png"
set title "IPC over GTO, cache-sensitive workloads (tb-ccws, tiny)"
set ylabel "ipc / gto"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set key outside right top
set yrange [0:*]
set xtics rotate by -30
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2
plot "daws.dat" using 2:xtic(1) title columnheader(2), "daws.dat" using 3:xtic(1) title columnheader(3), "daws.dat" using 4:xtic(1) title columnheader(4), "daws.dat" using 5:xtic(1) title columnheader(5), "daws.dat" using 6:xtic(1) title columnheader(6)
set terminal svg size 1000,560 noenhanced font 'sans,11'
set output "daws.svg"
replot
unset output
