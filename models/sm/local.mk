# models/sm: the SM blocks (fetch, decode, issue, opcoll, regfile, execution units, ldst, writeback,
# barrier, cta_dispatch), the sm/subcore_sm topologies and their tests. Included from models/local.mk.
