# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
#
# Builds the DPU node for an AMD Alveo U55C card: the node (RDMA engine, collective engine and
# reducer at 512 bits) behind the PCIe Gen3 x16 hard block (BAR0 = the node's register bus) and
# the 100G Ethernet hard block on QSFP28 cage 0. Vivado (2023.1 or later, with the U55C's part):
#
#     vivado -mode batch -source rtl/boards/alveo_u55c/build.tcl [-tclargs <output folder>]
#
# from the checkout's root or anywhere else. Writes the bitstream, the utilisation and timing
# reports and a routed checkpoint to the output folder (build/alveo_u55c by default), and fails
# when the routed design misses timing. Non-project flow: nothing but this script and the
# repository's file lists decide what is built.
#
# The suite cannot run Vivado. tests/test_alveo_project.py runs this script in tclsh against
# recording stand-ins of the Vivado commands it uses (tests/alveo/vivado_stubs.tcl): it must
# parse, name only files that exist and the two hard blocks the simulation models stand for, and
# its top must elaborate in Verilator and Icarus with those models.

set script_folder [file dirname [file normalize [info script]]]
set root [file normalize [file join $script_folder .. .. ..]]
set output_folder [file join $root build alveo_u55c]
if {[llength $argv] > 0} {
    set output_folder [file normalize [lindex $argv 0]]
}

set part xcu55c-fsvh2892-2L-e
set top alveo_u55c_top

# The design's sources: the file lists the testbenches build from, in their order. Each line of a
# list is a path relative to the list (# starts a comment); .vh headers give include folders and
# Verilator's .vlt waiver files are not Vivado's business.
set file_lists {
    rtl/common/common.f
    rtl/pcie/pcie.f
    rtl/rdma/rdma.f
    rtl/allreduce/allreduce.f
    rtl/collective/collective.f
    rtl/cluster/cluster.f
    rtl/cluster/node.f
    rtl/bringup/bringup.f
    rtl/bringup/engines.f
    rtl/boards/alveo_u55c/alveo_u55c.f
}

proc list_entries {list_path} {
    set entries {}
    set handle [open $list_path r]
    foreach line [split [read $handle] "\n"] {
        set entry [string trim [lindex [split $line "#"] 0]]
        if {$entry ne ""} {
            lappend entries [file normalize [file join [file dirname $list_path] $entry]]
        }
    }
    close $handle
    return $entries
}

set verilog_sources {}
set systemverilog_sources {}
set include_folders {}
foreach file_list $file_lists {
    foreach source [list_entries [file join $root $file_list]] {
        switch -- [file extension $source] {
            .v   { if {[lsearch -exact $verilog_sources $source] < 0} { lappend verilog_sources $source } }
            .sv  { if {[lsearch -exact $systemverilog_sources $source] < 0} { lappend systemverilog_sources $source } }
            .vh  { if {[lsearch -exact $include_folders [file dirname $source]] < 0} { lappend include_folders [file dirname $source] } }
            .vlt { }
            default { error "build.tcl: $file_list names $source, which is neither Verilog nor a header" }
        }
    }
}

# The commit the bitstream is built from, read back through the node's ID block
set git_hash 00000000
catch {set git_hash [exec git -C $root rev-parse --short=8 HEAD]}

file mkdir $output_folder
create_project -in_memory -part $part
set_property target_language Verilog [current_project]
read_verilog $verilog_sources
read_verilog -sv $systemverilog_sources
read_xdc [file join $script_folder alveo_u55c.xdc]

# ---- The hard blocks (their simulation models: rtl/boards/alveo_u55c/models) ----

set ip_folder [file join $output_folder ip]
file mkdir $ip_folder

# PCIe: Gen3 x16 (8 GT/s), 512-bit AXI4-Stream user interface at 250 MHz (the core clock), one
# function with a 64 KiB 32-bit BAR0: the node's register bus (pcie_us_cq_axil's 16 address bits).
# Processing-accelerator class code (12 00 00). Block PCIE4C_X1Y0 on quads 224-227, the x16 edge.
create_ip -name pcie4c_uscale_plus -vendor xilinx.com -library ip -module_name dpuv_pcie -dir $ip_folder
set_property -dict [list \
    CONFIG.mode_selection {Advanced} \
    CONFIG.pcie_blk_locn {PCIE4C_X1Y0} \
    CONFIG.select_quad {GTY_Quad_227} \
    CONFIG.PL_LINK_CAP_MAX_LINK_SPEED {8.0_GT/s} \
    CONFIG.PL_LINK_CAP_MAX_LINK_WIDTH {X16} \
    CONFIG.axisten_if_width {512_bit} \
    CONFIG.axisten_freq {250} \
    CONFIG.AXISTEN_IF_EXT_512_CQ_STRADDLE {false} \
    CONFIG.AXISTEN_IF_EXT_512_RQ_STRADDLE {false} \
    CONFIG.PF0_CLASS_CODE {120000} \
    CONFIG.PF0_DEVICE_ID {d500} \
    CONFIG.vendor_id {10ee} \
    CONFIG.pf0_bar0_64bit {false} \
    CONFIG.pf0_bar0_prefetchable {false} \
    CONFIG.pf0_bar0_scale {Kilobytes} \
    CONFIG.pf0_bar0_size {64} \
] [get_ips dpuv_pcie]

# 100G Ethernet: CAUI-4 on QSFP28 cage 0 (transceivers X0Y24-X0Y27, quad 130, reference clock
# 161.1328125 MHz), the MAC block nearest them, 512-bit AXI4-Stream user interface, RS-FEC,
# no pause frames, the 100 MHz board clock for initialisation and the DRP.
create_ip -name cmac_usplus -vendor xilinx.com -library ip -module_name dpuv_cmac -dir $ip_folder
set_property -dict [list \
    CONFIG.CMAC_CAUI4_MODE {1} \
    CONFIG.NUM_LANES {4x25} \
    CONFIG.USER_INTERFACE {AXIS} \
    CONFIG.GT_REF_CLK_FREQ {161.1328125} \
    CONFIG.GT_DRP_CLK {100} \
    CONFIG.CMAC_CORE_SELECT {CMACE4_X0Y3} \
    CONFIG.GT_GROUP_SELECT {X0Y24~X0Y27} \
    CONFIG.INCLUDE_RS_FEC {1} \
    CONFIG.TX_FLOW_CONTROL {0} \
    CONFIG.RX_FLOW_CONTROL {0} \
    CONFIG.RX_MAX_PACKET_LEN {9600} \
] [get_ips dpuv_cmac]

generate_target all [get_ips]
synth_ip [get_ips]

# ---- Synthesis, place and route ----

synth_design -top $top -part $part -include_dirs $include_folders -generic "GIT_HASH=32'h$git_hash"
write_checkpoint -force [file join $output_folder post_synth.dcp]
opt_design
place_design
phys_opt_design
route_design
write_checkpoint -force [file join $output_folder post_route.dcp]
report_utilization -file [file join $output_folder utilization.rpt]
report_timing_summary -file [file join $output_folder timing_summary.rpt]

# A bitstream that misses timing works on the bench only by luck: refuse it
set worst_setup [get_property SLACK [get_timing_paths -delay_type max -max_paths 1]]
set worst_hold [get_property SLACK [get_timing_paths -delay_type min -max_paths 1]]
if {$worst_setup < 0 || $worst_hold < 0} {
    error "build.tcl: timing not met (worst setup slack $worst_setup ns, hold $worst_hold ns): see timing_summary.rpt"
}
write_bitstream -force [file join $output_folder $top.bit]
puts "build.tcl: $top.bit written to $output_folder (commit $git_hash)"
