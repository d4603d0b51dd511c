# rtl/top: the core top that puts the engines behind one register bus.
dpuv_core.v
