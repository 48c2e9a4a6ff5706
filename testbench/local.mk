# testbench: part of the top-level Makefile.am (included, non-recursive).

# tb-pipeline: the block framework's demo testbench (what scripts/demo.sh runs for now).
bin_PROGRAMS += testbench/tb-pipeline
testbench_tb_pipeline_SOURCES = testbench/tb-pipeline.c
testbench_tb_pipeline_LDADD = $(GPUSC_LIBS)
