"""Host driver models: the steps host software takes to run each engine, over the register access interface."""
