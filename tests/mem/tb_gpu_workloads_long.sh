#!/bin/sh
# tb_gpu_workloads.sh at the default size (make check-long).
exec sh "${top_srcdir:-.}/tests/mem/tb_gpu_workloads.sh" default
