# kernels/frun.mk: included from kernels/local.mk.
