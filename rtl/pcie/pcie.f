# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# rtl/pcie: PCIe pieces shared by the engines behind the host interface. Paths are relative to this file.
pcie.vlt
pcie_us_cq_axil.v
pcie_us_read_pieces.v
pcie_us_requester.v
pcie_msix.v
