#!/bin/sh
# Every built-in workload at the default size on the functional runner (make check-long; TAP).
here=$(dirname "$0")
exec sh "$here/test_workloads_functional.sh" default
