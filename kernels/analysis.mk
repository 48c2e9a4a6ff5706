# kernels/analysis.mk: included from kernels/local.mk.
