# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
#
# Recording stand-ins for the Vivado commands build.tcl and the XDC use, for tclsh:
#
#     DPUV_VIVADO_RECORD=calls.jsonl tclsh vivado_stubs.tcl <script.tcl> [script arguments...]
#
# Each Vivado command the script calls is written to the record as one JSON array per line (the
# command, then its arguments; a -dict list is spread into its keys and values). The stand-ins
# check what Vivado itself would refuse: a file that does not exist, an IP or an option a command
# needs that is missing, a query for an IP never created. Any command they do not know fails, so
# a misspelt Vivado command fails here too. A constraint file is read as Vivado reads it: sourced,
# so its own commands are checked and recorded the same way.

set record [open $env(DPUV_VIVADO_RECORD) w]

proc json_string {text} {
    return "\"[string map [list \\ \\\\ \" \\\" \n \\n \r \\r \t \\t] $text]\""
}

proc record {command arguments} {
    set items [list [json_string $command]]
    foreach argument $arguments {
        lappend items [json_string $argument]
    }
    puts $::record "\[[join $items ,]\]"
    flush $::record
}

proc refuse {message} {
    error "vivado stand-in: $message"
}

proc option_value {arguments option} {
    set index [lsearch -exact $arguments $option]
    if {$index < 0 || $index + 1 >= [llength $arguments]} {
        return ""
    }
    return [lindex $arguments [expr {$index + 1}]]
}

proc require_option {command arguments option} {
    if {[option_value $arguments $option] eq ""} {
        refuse "$command needs $option"
    }
}

proc require_files {command paths} {
    foreach path $paths {
        if {![file isfile $path]} {
            refuse "$command: no such file: $path"
        }
    }
}

# ---- Project and sources ----

proc create_project {args} {
    require_option create_project $args -part
    record create_project $args
    return dpuv_project
}
proc current_project {args} { return dpuv_project }
proc current_design {args} { return dpuv_design }

proc read_verilog {args} {
    set paths {}
    foreach argument $args {
        if {![string match -* $argument]} {
            lappend paths {*}$argument
        }
    }
    if {[llength $paths] == 0} {
        refuse "read_verilog without a file"
    }
    require_files read_verilog $paths
    record read_verilog [concat [lsearch -all -inline -glob $args -*] $paths]
}

proc read_xdc {args} {
    require_files read_xdc $args
    record read_xdc $args
    foreach path $args {
        uplevel #0 [list source $path]
    }
}

proc set_property {args} {
    if {[lindex $args 0] eq "-dict"} {
        record set_property [concat -dict [lindex $args 1] [lrange $args 2 end]]
    } else {
        record set_property $args
    }
}

# ---- IP ----

array set created_ips {}

proc create_ip {args} {
    require_option create_ip $args -name
    require_option create_ip $args -module_name
    set ::created_ips([option_value $args -module_name]) [option_value $args -name]
    record create_ip $args
    return [option_value $args -module_name]
}

proc get_ips {args} {
    set names [lsearch -all -inline -not -glob $args -*]
    if {[llength $names] == 0} {
        return [lsort [array names ::created_ips]]
    }
    foreach name $names {
        if {![info exists ::created_ips($name)]} {
            refuse "get_ips: no IP named $name was created"
        }
    }
    return $names
}

proc generate_target {args} {
    get_ips {*}[lindex $args end]
    record generate_target $args
}
proc synth_ip {args} {
    get_ips {*}[lindex $args end]
    record synth_ip $args
}

# ---- Implementation ----

proc synth_design {args} {
    require_option synth_design $args -top
    require_option synth_design $args -part
    record synth_design $args
}
foreach step {opt_design place_design phys_opt_design route_design write_checkpoint report_utilization
              report_timing_summary write_bitstream} {
    proc $step {args} "record $step \$args"
}
proc get_timing_paths {args} {
    record get_timing_paths $args
    return timing_path
}
proc get_property {name object} {
    if {$name eq "SLACK" && $object eq "timing_path"} {
        return 0.100
    }
    refuse "get_property $name of $object"
}

# ---- Constraints ----

proc get_ports {args} {
    set names [lsearch -all -inline -not -glob $args -*]
    record get_ports [concat {*}$names]
    return [concat {*}$names]
}
proc get_pins {args} {
    record get_pins $args
    return $args
}
proc get_clocks {args} {
    record get_clocks $args
    return "clock:[join $args { }]"
}
foreach command {create_clock set_false_path set_max_delay set_input_delay set_output_delay set_clock_groups} {
    proc $command {args} "record $command \$args"
}

proc unknown {args} {
    refuse "[lindex $args 0] is not a command the Vivado stand-ins know (misspelt, or a new one to add here)"
}

set script [lindex $argv 0]
set argv [lrange $argv 1 end]
set argc [llength $argv]
set argv0 $script
source $script
close $record
