# rtl/allreduce: the all-reduce reduction unit. Paths are relative to this file.
allreduce.vlt
fp_add.v
fp_max_min.v
float_lanes.v
int_lanes.v
reduce_alu.v
allreduce_reducer.v
