#!/bin/sh
# make check-long: every workload at the default size on tb-sm and tb-subcore with every issue policy
# of the tiny run (lrr, gto, oldest, two_level_active:6:0:1: the list in test_tb_workloads.sh).
SIZE=default exec sh "$top_srcdir/tests/sm/test_tb_workloads.sh"
