# kernels/workloads/local.mk: included from kernels/local.mk.
# --- workloads ---
# The workloads: CUDA sources (kernels/cuda), the PTX nvcc made from them and what ptxas reports
# (kernels/ptx, committed), and the C drivers with input generators and CPU references
# (kernels/workloads). Building and testing never need nvcc; `make ptx` regenerates the PTX.
nobase_pkginclude_HEADERS += kernels/workloads/workload.h
noinst_HEADERS += kernels/workloads/wl-common.h
kernels_libgpusc_kernels_core_la_SOURCES += \
	kernels/workloads/common.c \
	kernels/workloads/registry.c \
	kernels/workloads/vecadd.c \
	kernels/workloads/sgemm.c \
	kernels/workloads/reduction.c \
	kernels/workloads/histogram.c \
	kernels/workloads/hotspot.c \
	kernels/workloads/stencil3d.c \
	kernels/workloads/bfs.c \
	kernels/workloads/spmv.c \
	kernels/workloads/kmeans.c \
	kernels/workloads/backprop.c \
	kernels/workloads/srad.c \
	kernels/workloads/nw.c \
	kernels/workloads/scalarprod.c \
	kernels/workloads/convolution.c \
	kernels/workloads/nbody.c \
	kernels/workloads/pathfinder.c \
	kernels/workloads/transpose.c

EXTRA_DIST += kernels/gen-ptx.sh kernels/ptx/README.md docs/workloads.md \
	kernels/cuda/vecadd.cu kernels/ptx/vecadd.resources \
	kernels/cuda/sgemm.cu kernels/ptx/sgemm.resources \
	kernels/cuda/reduction.cu kernels/ptx/reduction.resources \
	kernels/cuda/histogram.cu kernels/ptx/histogram.resources \
	kernels/cuda/hotspot.cu kernels/ptx/hotspot.resources \
	kernels/cuda/stencil3d.cu kernels/ptx/stencil3d.resources \
	kernels/cuda/bfs.cu kernels/ptx/bfs.resources \
	kernels/cuda/spmv.cu kernels/ptx/spmv.resources \
	kernels/cuda/kmeans.cu kernels/ptx/kmeans.resources \
	kernels/cuda/backprop.cu kernels/ptx/backprop.resources \
	kernels/cuda/srad.cu kernels/ptx/srad.resources \
	kernels/cuda/nw.cu kernels/ptx/nw.resources \
	kernels/cuda/scalarprod.cu kernels/ptx/scalarprod.resources \
	kernels/cuda/convolution.cu kernels/ptx/convolution.resources \
	kernels/cuda/nbody.cu kernels/ptx/nbody.resources \
	kernels/cuda/pathfinder.cu kernels/ptx/pathfinder.resources \
	kernels/cuda/transpose.cu kernels/ptx/transpose.resources

# The PTX is installed too, so installed tools can run the built-in workloads ($(pkgdatadir)/ptx).
workloadptxdir = $(pkgdatadir)/ptx
dist_workloadptx_DATA = \
	kernels/ptx/vecadd.ptx \
	kernels/ptx/sgemm.ptx \
	kernels/ptx/reduction.ptx \
	kernels/ptx/histogram.ptx \
	kernels/ptx/hotspot.ptx \
	kernels/ptx/stencil3d.ptx \
	kernels/ptx/bfs.ptx \
	kernels/ptx/spmv.ptx \
	kernels/ptx/kmeans.ptx \
	kernels/ptx/backprop.ptx \
	kernels/ptx/srad.ptx \
	kernels/ptx/nw.ptx \
	kernels/ptx/scalarprod.ptx \
	kernels/ptx/convolution.ptx \
	kernels/ptx/nbody.ptx \
	kernels/ptx/pathfinder.ptx \
	kernels/ptx/transpose.ptx

check_PROGRAMS += tests/kernels/test_workloads
TESTS += tests/kernels/test_workloads
tests_kernels_test_workloads_SOURCES = tests/kernels/test_workloads.c
tests_kernels_test_workloads_LDADD = $(KERNELS_LIBS)

# `make ptx`: regenerate kernels/ptx/*.ptx and *.resources from kernels/cuda/*.cu (needs nvcc).
if HAVE_NVCC
ptx:
	NVCC='$(NVCC)' PTXAS='$(PTXAS)' $(SHELL) $(top_srcdir)/kernels/gen-ptx.sh $(top_srcdir)/kernels
else
ptx:
	@echo "make ptx: nvcc was not found at configure time; the committed PTX is used as is" >&2; exit 1
endif
.PHONY: ptx
# --- end workloads ---
