# tests: part of the top-level Makefile.am (included, non-recursive).
