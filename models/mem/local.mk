# models/mem: the memory-side blocks (icnt, l2, dram), the gpu topology and their tests. Included
# from models/local.mk.
