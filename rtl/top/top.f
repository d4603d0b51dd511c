# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# rtl/top: the core top that puts the engines behind one register bus.
dpuv_core.v
