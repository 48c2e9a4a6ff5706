# gpusc-plot: gnuplot speedup.gp writes speedup.png and speedup.svg
set terminal pngcairo size 1000,560 noenhanced font ',11'
set output "speedup.png"
set title "IPC over GTO (tb-ccws, tiny)"
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
plot "speedup.dat" using 2:xtic(1) title columnheader(2), "speedup.dat" using 3:xtic(1) title columnheader(3), "speedup.dat" using 4:xtic(1) title columnheader(4), "speedup.dat" using 5:xtic(1) title columnheader(5), "speedup.dat" using 6:xtic(1) title columnheader(6), "speedup.dat" using 7:xtic(1) title columnheader(7), "speedup.dat" using 8:xtic(1) title columnheader(8), "speedup.dat" using 9:xtic(1) title columnheader(9), "speedup.dat" using 10:xtic(1) title columnheader(10)
set terminal svg size 1000,560 noenhanced font 'sans,11'
set output "speedup.svg"
replot
unset output
