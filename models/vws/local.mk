# models/vws: variable warp sizing (docs/vws.md): the SM's warp width, and its tests. Included from
# models/local.mk.
dist_check_SCRIPTS += tests/sm/test_tb_warp_size.sh
TESTS += tests/sm/test_tb_warp_size.sh
