# rtl/rdma: the RoCEv2 RDMA transport engine. Paths are relative to this file.
rdma.vlt
roce_opcode_info.v
roce_icrc_append.v
roce_tx_builder.v
