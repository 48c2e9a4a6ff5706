#!/bin/sh
# make check-long: every workload at the default size on tb-sm and tb-subcore with gto and lrr.
SIZE=default POLICIES="gto lrr" exec sh "$top_srcdir/tests/sm/test_tb_workloads.sh"
