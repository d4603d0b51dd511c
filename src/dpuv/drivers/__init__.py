# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Host driver models: the steps host software takes to run each engine, over the register access interface."""
