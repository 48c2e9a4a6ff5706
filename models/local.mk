# models: part of the top-level Makefile.am (included, non-recursive).
include models/lib/local.mk
