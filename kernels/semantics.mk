# kernels/semantics.mk: included from kernels/local.mk.
