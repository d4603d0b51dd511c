# tb/rdma: testbench-only tops. Paths are relative to this file.
rdma_engine_pair.v
