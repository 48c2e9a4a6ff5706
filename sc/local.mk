# sc/: part of the top-level Makefile.am (included, non-recursive).
#
# NOTE TO THE ENGINEER WORKING ON sc/ (read before editing):
# Several engineers work in /work/main at the same time, each in their own directories.
# - Build OUT OF TREE only: mkdir -p /tmp/build-sc && cd /tmp/build-sc && /work/main/configure -q && make -j2 <targets>.
#   Never run ./configure or make inside /work/main (it breaks everyone's VPATH builds).
# - Edit only sc/, tests/sc/, bench/local.mk, bench/activation*, docs/sc-api.md, this file.
# - Commit only your paths: git add sc tests/sc bench docs/sc-api.md && git commit -m "..."
#   Never git add -A / git add . / git stash / git reset / git clean. If .git/index.lock exists, wait and retry.
# - Build and run only your own targets (other directories may be mid-edit); 2 cores: make -j2 at most.
