# kernels/frontend.mk: included from kernels/local.mk.
