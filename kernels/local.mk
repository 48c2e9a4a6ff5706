# kernels/: part of the top-level Makefile.am (included, non-recursive).
# One fragment per part of the toolchain, so that each can be edited independently.
include kernels/workloads/workloads.mk
include kernels/frontend/frontend.mk
include kernels/semantics/semantics.mk
include kernels/analysis/analysis.mk
include kernels/run/frun.mk
include kernels/passes/reuse_profile.mk
include kernels/passes/greener.mk
include kernels/passes/daws_pass.mk
