# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# rtl/cluster: the cluster's switch and link model. Paths are relative to this file.
# Needs rtl/common/common.f (axis_arb_mux, rr_arbiter, axis_skid_buffer, event_counters).
cluster.vlt
fabric_random.v
fabric_link_pacer.v
fabric_delay.v
fabric_ecn_marker.v
fabric_egress_queue.v
fabric_fault_injector.v
fabric_egress_port.v
fabric_ingress_router.v
fabric_reset_guard.v
fabric_switch.v
