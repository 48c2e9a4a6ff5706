# kernels/: part of the top-level Makefile.am (included, non-recursive).
# One fragment per part of the toolchain, so that each can be edited independently.
include kernels/workloads.mk
include kernels/frontend.mk
include kernels/semantics.mk
include kernels/analysis.mk
include kernels/frun.mk
include kernels/reuse_profile.mk
include kernels/greener.mk
include kernels/daws_pass.mk
