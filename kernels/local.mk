# kernels/: part of the top-level Makefile.am (included, non-recursive).
# One fragment per part of the toolchain, so that each can be edited independently.
include kernels/workloads/local.mk
include kernels/frontend/local.mk
include kernels/semantics/local.mk
include kernels/analysis/local.mk
include kernels/run/local.mk
include kernels/passes/local.mk
