# kernels/workloads.mk: included from kernels/local.mk.
