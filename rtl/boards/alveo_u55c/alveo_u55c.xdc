# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# Constraints of alveo_u55c_top on the Alveo U55C (xcu55c-fsvh2892-2L-e). Pins and banks: the
# card's user guide (UG1469) and its board files; docs/alveo.md keeps the ones used here.

# Configuration: 1.8 V bank 0, quad-SPI flash, compressed bitstream
set_property CFGBVS GND [current_design]
set_property CONFIG_VOLTAGE 1.8 [current_design]
set_property CONFIG_MODE SPIx4 [current_design]
set_property BITSTREAM.CONFIG.SPI_BUSWIDTH 4 [current_design]
set_property BITSTREAM.CONFIG.SPI_32BIT_ADDR YES [current_design]
set_property BITSTREAM.CONFIG.CONFIGRATE 85.0 [current_design]
set_property BITSTREAM.CONFIG.EXTMASTERCCLK_EN DISABLE [current_design]
set_property BITSTREAM.CONFIG.SPI_FALL_EDGE YES [current_design]
set_property BITSTREAM.CONFIG.UNUSEDPIN PULLUP [current_design]
set_property BITSTREAM.GENERAL.COMPRESS TRUE [current_design]

# ---- PCIe x16 edge ----
# 100 MHz reference from the slot, MGTREFCLK0 of quad 225 (the one the x16 block uses)
set_property PACKAGE_PIN AR15 [get_ports pcie_refclk_p]
set_property PACKAGE_PIN AR14 [get_ports pcie_refclk_n]
create_clock -period 10.000 -name pcie_refclk [get_ports pcie_refclk_p]
# PERST# from the slot (1.8 V); asynchronous to everything
set_property PACKAGE_PIN BF41 [get_ports pcie_reset_n]
set_property IOSTANDARD LVCMOS18 [get_ports pcie_reset_n]
set_property PULLUP true [get_ports pcie_reset_n]
set_false_path -from [get_ports pcie_reset_n]
# The lanes, quads 227 (lanes 0-3) to 224 (lanes 12-15)
set_property PACKAGE_PIN AL2 [get_ports {pcie_rx_p[0]}] ;# MGTYRXP3_227
set_property PACKAGE_PIN AL1 [get_ports {pcie_rx_n[0]}] ;# MGTYRXN3_227
set_property PACKAGE_PIN AL11 [get_ports {pcie_tx_p[0]}] ;# MGTYTXP3_227
set_property PACKAGE_PIN AL10 [get_ports {pcie_tx_n[0]}] ;# MGTYTXN3_227
set_property PACKAGE_PIN AM4 [get_ports {pcie_rx_p[1]}] ;# MGTYRXP2_227
set_property PACKAGE_PIN AM3 [get_ports {pcie_rx_n[1]}] ;# MGTYRXN2_227
set_property PACKAGE_PIN AM9 [get_ports {pcie_tx_p[1]}] ;# MGTYTXP2_227
set_property PACKAGE_PIN AM8 [get_ports {pcie_tx_n[1]}] ;# MGTYTXN2_227
set_property PACKAGE_PIN AN6 [get_ports {pcie_rx_p[2]}] ;# MGTYRXP1_227
set_property PACKAGE_PIN AN5 [get_ports {pcie_rx_n[2]}] ;# MGTYRXN1_227
set_property PACKAGE_PIN AN11 [get_ports {pcie_tx_p[2]}] ;# MGTYTXP1_227
set_property PACKAGE_PIN AN10 [get_ports {pcie_tx_n[2]}] ;# MGTYTXN1_227
set_property PACKAGE_PIN AN2 [get_ports {pcie_rx_p[3]}] ;# MGTYRXP0_227
set_property PACKAGE_PIN AN1 [get_ports {pcie_rx_n[3]}] ;# MGTYRXN0_227
set_property PACKAGE_PIN AP9 [get_ports {pcie_tx_p[3]}] ;# MGTYTXP0_227
set_property PACKAGE_PIN AP8 [get_ports {pcie_tx_n[3]}] ;# MGTYTXN0_227
set_property PACKAGE_PIN AP4 [get_ports {pcie_rx_p[4]}] ;# MGTYRXP3_226
set_property PACKAGE_PIN AP3 [get_ports {pcie_rx_n[4]}] ;# MGTYRXN3_226
set_property PACKAGE_PIN AR11 [get_ports {pcie_tx_p[4]}] ;# MGTYTXP3_226
set_property PACKAGE_PIN AR10 [get_ports {pcie_tx_n[4]}] ;# MGTYTXN3_226
set_property PACKAGE_PIN AR2 [get_ports {pcie_rx_p[5]}] ;# MGTYRXP2_226
set_property PACKAGE_PIN AR1 [get_ports {pcie_rx_n[5]}] ;# MGTYRXN2_226
set_property PACKAGE_PIN AR7 [get_ports {pcie_tx_p[5]}] ;# MGTYTXP2_226
set_property PACKAGE_PIN AR6 [get_ports {pcie_tx_n[5]}] ;# MGTYTXN2_226
set_property PACKAGE_PIN AT4 [get_ports {pcie_rx_p[6]}] ;# MGTYRXP1_226
set_property PACKAGE_PIN AT3 [get_ports {pcie_rx_n[6]}] ;# MGTYRXN1_226
set_property PACKAGE_PIN AT9 [get_ports {pcie_tx_p[6]}] ;# MGTYTXP1_226
set_property PACKAGE_PIN AT8 [get_ports {pcie_tx_n[6]}] ;# MGTYTXN1_226
set_property PACKAGE_PIN AU2 [get_ports {pcie_rx_p[7]}] ;# MGTYRXP0_226
set_property PACKAGE_PIN AU1 [get_ports {pcie_rx_n[7]}] ;# MGTYRXN0_226
set_property PACKAGE_PIN AU11 [get_ports {pcie_tx_p[7]}] ;# MGTYTXP0_226
set_property PACKAGE_PIN AU10 [get_ports {pcie_tx_n[7]}] ;# MGTYTXN0_226
set_property PACKAGE_PIN AV4 [get_ports {pcie_rx_p[8]}] ;# MGTYRXP3_225
set_property PACKAGE_PIN AV3 [get_ports {pcie_rx_n[8]}] ;# MGTYRXN3_225
set_property PACKAGE_PIN AU7 [get_ports {pcie_tx_p[8]}] ;# MGTYTXP3_225
set_property PACKAGE_PIN AU6 [get_ports {pcie_tx_n[8]}] ;# MGTYTXN3_225
set_property PACKAGE_PIN AW6 [get_ports {pcie_rx_p[9]}] ;# MGTYRXP2_225
set_property PACKAGE_PIN AW5 [get_ports {pcie_rx_n[9]}] ;# MGTYRXN2_225
set_property PACKAGE_PIN AV9 [get_ports {pcie_tx_p[9]}] ;# MGTYTXP2_225
set_property PACKAGE_PIN AV8 [get_ports {pcie_tx_n[9]}] ;# MGTYTXN2_225
set_property PACKAGE_PIN AW2 [get_ports {pcie_rx_p[10]}] ;# MGTYRXP1_225
set_property PACKAGE_PIN AW1 [get_ports {pcie_rx_n[10]}] ;# MGTYRXN1_225
set_property PACKAGE_PIN AW11 [get_ports {pcie_tx_p[10]}] ;# MGTYTXP1_225
set_property PACKAGE_PIN AW10 [get_ports {pcie_tx_n[10]}] ;# MGTYTXN1_225
set_property PACKAGE_PIN AY4 [get_ports {pcie_rx_p[11]}] ;# MGTYRXP0_225
set_property PACKAGE_PIN AY3 [get_ports {pcie_rx_n[11]}] ;# MGTYRXN0_225
set_property PACKAGE_PIN AY9 [get_ports {pcie_tx_p[11]}] ;# MGTYTXP0_225
set_property PACKAGE_PIN AY8 [get_ports {pcie_tx_n[11]}] ;# MGTYTXN0_225
set_property PACKAGE_PIN BA6 [get_ports {pcie_rx_p[12]}] ;# MGTYRXP3_224
set_property PACKAGE_PIN BA5 [get_ports {pcie_rx_n[12]}] ;# MGTYRXN3_224
set_property PACKAGE_PIN BA11 [get_ports {pcie_tx_p[12]}] ;# MGTYTXP3_224
set_property PACKAGE_PIN BA10 [get_ports {pcie_tx_n[12]}] ;# MGTYTXN3_224
set_property PACKAGE_PIN BA2 [get_ports {pcie_rx_p[13]}] ;# MGTYRXP2_224
set_property PACKAGE_PIN BA1 [get_ports {pcie_rx_n[13]}] ;# MGTYRXN2_224
set_property PACKAGE_PIN BB9 [get_ports {pcie_tx_p[13]}] ;# MGTYTXP2_224
set_property PACKAGE_PIN BB8 [get_ports {pcie_tx_n[13]}] ;# MGTYTXN2_224
set_property PACKAGE_PIN BB4 [get_ports {pcie_rx_p[14]}] ;# MGTYRXP1_224
set_property PACKAGE_PIN BB3 [get_ports {pcie_rx_n[14]}] ;# MGTYRXN1_224
set_property PACKAGE_PIN BC11 [get_ports {pcie_tx_p[14]}] ;# MGTYTXP1_224
set_property PACKAGE_PIN BC10 [get_ports {pcie_tx_n[14]}] ;# MGTYTXN1_224
set_property PACKAGE_PIN BC2 [get_ports {pcie_rx_p[15]}] ;# MGTYRXP0_224
set_property PACKAGE_PIN BC1 [get_ports {pcie_rx_n[15]}] ;# MGTYRXN0_224
set_property PACKAGE_PIN BC7 [get_ports {pcie_tx_p[15]}] ;# MGTYTXP0_224
set_property PACKAGE_PIN BC6 [get_ports {pcie_tx_n[15]}] ;# MGTYTXN0_224

# ---- QSFP28 cage 0 ----
# 161.1328125 MHz transceiver reference from the card's SI5394 (OUT0), MGTREFCLK0 of quad 130
set_property PACKAGE_PIN AD42 [get_ports qsfp0_refclk_p]
set_property PACKAGE_PIN AD43 [get_ports qsfp0_refclk_n]
create_clock -period 6.206 -name qsfp0_refclk [get_ports qsfp0_refclk_p]
# The four 25G lanes, quad 130 (transceivers X0Y24 to X0Y27)
set_property PACKAGE_PIN AD51 [get_ports {qsfp0_rx_p[0]}] ;# MGTYRXP0_130
set_property PACKAGE_PIN AD52 [get_ports {qsfp0_rx_n[0]}] ;# MGTYRXN0_130
set_property PACKAGE_PIN AD46 [get_ports {qsfp0_tx_p[0]}] ;# MGTYTXP0_130
set_property PACKAGE_PIN AD47 [get_ports {qsfp0_tx_n[0]}] ;# MGTYTXN0_130
set_property PACKAGE_PIN AC53 [get_ports {qsfp0_rx_p[1]}] ;# MGTYRXP1_130
set_property PACKAGE_PIN AC54 [get_ports {qsfp0_rx_n[1]}] ;# MGTYRXN1_130
set_property PACKAGE_PIN AC44 [get_ports {qsfp0_tx_p[1]}] ;# MGTYTXP1_130
set_property PACKAGE_PIN AC45 [get_ports {qsfp0_tx_n[1]}] ;# MGTYTXN1_130
set_property PACKAGE_PIN AC49 [get_ports {qsfp0_rx_p[2]}] ;# MGTYRXP2_130
set_property PACKAGE_PIN AC50 [get_ports {qsfp0_rx_n[2]}] ;# MGTYRXN2_130
set_property PACKAGE_PIN AB46 [get_ports {qsfp0_tx_p[2]}] ;# MGTYTXP2_130
set_property PACKAGE_PIN AB47 [get_ports {qsfp0_tx_n[2]}] ;# MGTYTXN2_130
set_property PACKAGE_PIN AB51 [get_ports {qsfp0_rx_p[3]}] ;# MGTYRXP3_130
set_property PACKAGE_PIN AB52 [get_ports {qsfp0_rx_n[3]}] ;# MGTYRXN3_130
set_property PACKAGE_PIN AA48 [get_ports {qsfp0_tx_p[3]}] ;# MGTYTXP3_130
set_property PACKAGE_PIN AA49 [get_ports {qsfp0_tx_n[3]}] ;# MGTYTXN3_130
# The cage's LEDs (1.8 V): activity, link (green), fault (yellow)
set_property PACKAGE_PIN BL13 [get_ports qsfp0_led_activity]
set_property PACKAGE_PIN BK11 [get_ports qsfp0_led_link]
set_property PACKAGE_PIN BJ11 [get_ports qsfp0_led_fault]
set_property IOSTANDARD LVCMOS18 [get_ports {qsfp0_led_activity qsfp0_led_link qsfp0_led_fault}]
set_false_path -to [get_ports {qsfp0_led_activity qsfp0_led_link qsfp0_led_fault}]

# ---- Board ----
# 100 MHz LVDS system clock 0 (SI5394 OUT3): the MAC's initialisation and DRP clock
set_property PACKAGE_PIN BK10 [get_ports clk_100mhz_p]
set_property PACKAGE_PIN BL10 [get_ports clk_100mhz_n]
set_property IOSTANDARD LVDS [get_ports {clk_100mhz_p clk_100mhz_n}]
create_clock -period 10.000 -name clk_100mhz [get_ports clk_100mhz_p]
# HBM catastrophic-temperature output to the card's controller: held low
set_property PACKAGE_PIN BE45 [get_ports hbm_cattrip]
set_property IOSTANDARD LVCMOS18 [get_ports hbm_cattrip]
set_false_path -to [get_ports hbm_cattrip]

# ---- Clock domains ----
# The core clock (the PCIe block's user clock) and the MAC's user clock meet only in the two
# axis_async_fifo instances and the reset synchronisers. Their Gray-coded pointers must arrive
# within one destination period of each other (else a sample could mix two pointer values across
# bits): a datapath-only bound of one period of the faster clock, instead of no bound at all.
set core_clock [get_clocks -of_objects [get_pins pcie_inst/user_clk]]
set mac_clock [get_clocks -of_objects [get_pins mac_inst/gt_txusrclk2]]
set_max_delay -datapath_only -from $core_clock -to $mac_clock 3.100
set_max_delay -datapath_only -from $mac_clock -to $core_clock 3.100
